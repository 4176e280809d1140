import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { autoCleanup, mountLoginBox } from './test/harness';

// Under Vitest a stylesheet imports as an empty string; a rule of our own shows which sheet is which.
vi.mock('./later', async (original) => ({ ...(await original<typeof import('./later')>()), laterCss: '.gh-later-probe { color: red; }' }));

autoCleanup();

const rulesOf = (sheets: readonly CSSStyleSheet[]) => sheets.map((sheet) => [...sheet.cssRules].map((rule) => rule.cssText).join(' '));

async function toPasswordStep(m: Awaited<ReturnType<typeof mountLoginBox>>) {
  fireEvent.change(m.view.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
  fireEvent.click(m.view.getByRole('button', { name: 'Continue' }));
  await m.view.findByLabelText('Password');
}

describe('later steps', () => {
  it('paints the sign-in form with the first stylesheet alone; the password step brings the later one, adopted after it, in every mounted box, with the rest of the English messages', async () => {
    const first = await mountLoginBox('/account/login');
    const light = await mountLoginBox('/account/login', {}, { shadow: false });
    expect(first.shadow.adoptedStyleSheets).toHaveLength(1);
    expect(document.adoptedStyleSheets).toHaveLength(1);
    expect(rulesOf(first.shadow.adoptedStyleSheets).join()).not.toContain('gh-later-probe');

    await toPasswordStep(first);
    // Messages of the later catalog part (not in i18n/en-first.ts) are worded, not shown as keys.
    expect(first.view.getByRole('link', { name: 'Forgot password?' })).toBeTruthy();
    await waitFor(() => expect(first.shadow.adoptedStyleSheets).toHaveLength(2));
    expect(rulesOf(first.shadow.adoptedStyleSheets)[1]).toContain('gh-later-probe');
    expect(rulesOf(first.shadow.adoptedStyleSheets)[0]).not.toContain('gh-later-probe');
    // The light-DOM box on the same page gets it too; a box mounted later adopts both at once.
    expect(rulesOf(document.adoptedStyleSheets)[1]).toContain('gh-later-probe');
    const later = await mountLoginBox('/account/login');
    expect(later.shadow.adoptedStyleSheets).toHaveLength(2);

    await first.unmount();
    await light.unmount();
    await later.unmount();
    expect(first.shadow.adoptedStyleSheets).toHaveLength(0);
    expect(document.adoptedStyleSheets).toHaveLength(0);
  });
});
