import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toast, TOAST_MS } from './toast';

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('toast', () => {
  it('keeps a polite live region in the page, shows a saved change in it, and empties it after a while', () => {
    vi.useFakeTimers();
    const { container, rerender } = render(<Toast message={null} />);
    const region = container.querySelector('[role="status"]')!;
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
    rerender(<Toast message="Role Admin saved" />);
    expect(region.querySelector('.gh-ap-toast')?.textContent).toBe('Role Admin saved');
    act(() => vi.advanceTimersByTime(TOAST_MS));
    expect(region.textContent).toBe('');
  });
});
