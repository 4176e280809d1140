import { describe, expect, it } from 'vitest';
import { showPlaceholder } from './placeholder';

describe('the placeholder shown while a bundle arrives', () => {
  it('is a named, busy progress frame in the shadow root, in the scheme asked, and leaves nothing behind when removed', () => {
    const host = document.createElement('gatehouse-admin-portal');
    document.body.appendChild(host);
    const root = host.attachShadow({ mode: 'open' });
    const remove = showPlaceholder(root, 'Verwaltungsportal', 'dark');
    const frame = root.querySelector<HTMLElement>('[data-gh-placeholder]')!;
    expect(frame.getAttribute('role')).toBe('progressbar');
    expect(frame.getAttribute('aria-label')).toBe('Verwaltungsportal');
    expect(frame.getAttribute('aria-busy')).toBe('true');
    expect(frame.style.position).toBe('fixed');
    expect(frame.style.colorScheme).toBe('dark');
    expect(frame.textContent).toBe('');
    remove();
    expect(root.childNodes).toHaveLength(0);
    host.remove();
  });

  it("follows the system's scheme when the theme says system", () => {
    const host = document.createElement('div');
    const remove = showPlaceholder(host, 'Admin portal', 'system');
    expect(host.querySelector<HTMLElement>('[data-gh-placeholder]')!.style.colorScheme).toBe('light dark');
    remove();
    expect(host.childNodes).toHaveLength(0);
  });
});
