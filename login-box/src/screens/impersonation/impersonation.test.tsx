import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { autoCleanup, json, ME_ROUTE, mountLoginBox, sampleMe } from '../../test/harness';

const IMPERSONATE = 'POST /identity/resources/auth/v1/impersonate';
const target = { ...sampleMe, id: 'u2', name: 'Target User', email: 'target@example.com' };

autoCleanup();

describe('impersonation screen', () => {
  it('exchanges the token once, shows who you are signed in as, and navigates home after 1 s', async () => {
    const { view, calls, navigate } = await mountLoginBox('/account/impersonate?token=tok-1', {
      [IMPERSONATE]: () => json({ accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false }),
      [ME_ROUTE]: () => json(target),
    });
    expect((await view.findByRole('status')).textContent).toMatch(/Signing you in as the user|You are now signed in/);
    await waitFor(() => expect(view.getByRole('status').textContent).toContain('You are now signed in as Target User (target@example.com)'));
    expect(calls.filter((c) => c.key === IMPERSONATE).map((c) => c.body)).toEqual([{ token: 'tok-1' }]);
    expect(navigate).not.toHaveBeenCalled();
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'), { timeout: 2500 });
  });

  it('shows the server message for a used or expired token, with a way back', async () => {
    const { view, navigate } = await mountLoginBox('/account/impersonate?token=used', {
      [IMPERSONATE]: () => json({ errors: ['The impersonation link is invalid or has expired'], errorCode: 'ER-01106' }, 400),
    });
    expect((await view.findByRole('alert')).textContent).toBe('The impersonation link is invalid or has expired');
    expect(view.getByRole('link', { name: 'Back to sign in' })).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('a link without a token calls nothing and says it is invalid', async () => {
    const { view, calls } = await mountLoginBox('/account/impersonate');
    expect((await view.findByRole('alert')).textContent).toBe('The impersonation link is invalid or has expired');
    expect(calls.some((c) => c.key === IMPERSONATE)).toBe(false);
  });
});
