import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SecurityErrorCodes, SecurityPaths } from '@gatehouse/shared/admin-paths';
import type { GatehouseApi } from '../../contract';
import { readAdminPortalOptions } from '../../options';
import { createTestStore, makeUser, shadowMountPoint } from '../../test/fake-store';
import { policyApi, type Stored } from '../../test/security-api';
import GeneralSettingsTab from './general-settings-tab';

const STORED: Stored = {
  [SecurityPaths.mfaPolicy]: { enforceMFAType: 'DontForce', allowRememberMyDevice: true, mfaDeviceExpiration: 14 * 86_400 },
  [SecurityPaths.lockoutPolicy]: { id: 'lockout-1', enabled: true, maxAttempts: 5 },
  [SecurityPaths.passwordHistoryPolicy]: { enabled: false, historySize: 1 },
  [SecurityPaths.passwordPolicy]: { minLength: 8, maxLength: 128, allowPassphrases: true, minPhraseLength: 20, minOptionalTestsToPass: 2 },
  [SecurityPaths.passwordRotation]: { passwordExpiresIn: 0, notificationPeriod: 0 },
  [SecurityPaths.captchaPolicy]: { enabled: false, minScore: 0.5 },
  [SecurityPaths.userEmailsPolicy]: { allowEmailChange: true, requireVerifiedEmailForLogin: true },
};

function openTab(api: GatehouseApi, { canWrite = true, adminPortal }: { canWrite?: boolean; adminPortal?: unknown } = {}) {
  const { domElement, root } = shadowMountPoint();
  const user = makeUser();
  const store = createTestStore(user);
  const results: boolean[] = [];
  render(
    <GeneralSettingsTab title="Security" headingId="security-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions(adminPortal)} canWrite={canWrite} openTab={() => {}} onResult={(ok) => results.push(ok)} />,
    { container: domElement },
  );
  return { view: within(domElement), root, results };
}

const card = async (view: ReturnType<typeof within>, name: string) => within(await view.findByRole('region', { name }));
const saves = (calls: { method: string; query?: Record<string, unknown> }[]) => calls.filter((c) => c.method !== 'GET');

afterEach(() => {
  document.body.innerHTML = '';
});

describe('generalSettings tab', () => {
  it('shows a card per policy with its stored values; a failed captcha or rotation load is not shown (seed 001 section 8)', async () => {
    const { [SecurityPaths.captchaPolicy]: _captcha, [SecurityPaths.passwordRotation]: _rotation, ...stored } = STORED;
    const { api } = policyApi(stored);
    const { view } = openTab(api);
    const mfa = await card(view, 'Multi-factor authentication');
    expect((await mfa.findByLabelText('Require MFA') as HTMLSelectElement).value).toBe('DontForce');
    expect((mfa.getByLabelText('Remember a device for') as HTMLInputElement).value).toBe('14');
    expect(mfa.getByText('days')).toBeTruthy();
    const lockout = await card(view, 'Account lockout');
    expect((await lockout.findByLabelText('Failed attempts before lockout') as HTMLInputElement).value).toBe('5');
    expect(((await (await card(view, 'Password rules')).findByLabelText('Minimum length')) as HTMLInputElement).value).toBe('8');
    expect(await (await card(view, 'User emails')).findByRole('switch', { name: 'Require a verified email to sign in' })).toBeTruthy();
    await waitFor(() => expect(view.queryByRole('region', { name: 'Captcha' })).toBeNull());
    expect(view.queryByRole('region', { name: 'Password rotation' })).toBeNull();
    expect(view.queryByRole('alert')).toBeNull();
  });

  it('forces MFA after the dry run’s preview: POST while the tenant has no policy of its own, PATCH once it has', async () => {
    const { api, calls } = policyApi(STORED, {
      effects: (path, body) => (path === SecurityPaths.mfaPolicy && body.enforceMFAType === 'Force' && body.mfaDeviceExpiration === 14 * 86_400 ? [{ code: 'MFA_ENROLMENT_REQUIRED', affected: 14, total: 52, message: 'Forcing MFA will ask 14 of 52 users to enrol at their next sign-in.' }] : []),
    });
    const { view, results } = openTab(api);
    const mfa = await card(view, 'Multi-factor authentication');
    fireEvent.change(await mfa.findByLabelText('Require MFA'), { target: { value: 'Force' } });
    fireEvent.click(mfa.getByRole('button', { name: 'Save' }));
    expect(await mfa.findByText('Forcing MFA will ask 14 of 52 users to enrol at their next sign-in.')).toBeTruthy();
    fireEvent.click(mfa.getByRole('button', { name: 'Confirm and save' }));
    await waitFor(() => expect(mfa.getByRole('status').textContent).toBe('MFA policy saved'));
    expect(saves(calls).map((c) => [c.method, c.query?.dryRun ?? null])).toEqual([['POST', 'true'], ['POST', null]]);
    expect(saves(calls)[1]).toMatchObject({ body: { enforceMFAType: 'Force', allowRememberMyDevice: true, mfaDeviceExpiration: 14 * 86_400 } });

    fireEvent.change(mfa.getByLabelText('Remember a device for'), { target: { value: '7' } });
    fireEvent.click(mfa.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(mfa.getByRole('status').textContent).toBe('MFA policy saved. No users or sessions are affected.'));
    expect(saves(calls).slice(2).map((c) => [c.method, c.query?.dryRun ?? null])).toEqual([['PATCH', 'true'], ['PATCH', null]]);
    expect(saves(calls)[3]).toMatchObject({ body: { mfaDeviceExpiration: 7 * 86_400 } });
    expect(results).toEqual([true, true]);
  });

  it('shows a lockout looser than the vendor’s under its field, naming the vendor’s value, and reports false', async () => {
    const { api, calls } = policyApi(STORED, {
      failures: [{ method: 'PATCH', path: SecurityPaths.lockoutPolicy, error: { message: "maxAttempts cannot be more than the vendor's 5", statusCode: 400, errorCode: SecurityErrorCodes.policyLooserThanVendor, errorContext: { field: 'maxAttempts', vendorValue: 5 } } as never }],
    });
    const { view, root, results } = openTab(api);
    const lockout = await card(view, 'Account lockout');
    const attempts = (await lockout.findByLabelText('Failed attempts before lockout')) as HTMLInputElement;
    fireEvent.change(attempts, { target: { value: '10' } });
    fireEvent.click(lockout.getByRole('button', { name: 'Save' }));
    expect(await lockout.findByText("Cannot be more than the vendor's 5")).toBeTruthy();
    expect(attempts.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(root.activeElement).toBe(attempts));
    expect(attempts.value).toBe('10');
    expect(lockout.queryByRole('alert')).toBeNull();
    expect(results).toEqual([false]);
    expect(saves(calls).filter((c) => !c.query)).toEqual([]);
  });

  it('refuses password rules whose maximum is below the minimum, or out of bounds, before calling', async () => {
    const { api, calls } = policyApi(STORED);
    const { view } = openTab(api);
    const rules = await card(view, 'Password rules');
    fireEvent.change(await rules.findByLabelText('Minimum length'), { target: { value: '20' } });
    fireEvent.change(rules.getByLabelText('Maximum length'), { target: { value: '12' } });
    fireEvent.click(rules.getByRole('button', { name: 'Save' }));
    expect(await rules.findByText('The maximum length can’t be less than the minimum length.')).toBeTruthy();
    fireEvent.change(rules.getByLabelText('Character tests to pass'), { target: { value: '5' } });
    fireEvent.click(rules.getByRole('button', { name: 'Save' }));
    expect(await rules.findByText('Enter a whole number from 0 to 4.')).toBeTruthy();
    expect(saves(calls)).toEqual([]);
  });

  it('shows a policy’s load failure with Try again (policies other than captcha and rotation)', async () => {
    const { [SecurityPaths.lockoutPolicy]: _lockout, ...stored } = STORED;
    const { api } = policyApi(stored);
    const { view } = openTab(api);
    const lockout = await card(view, 'Account lockout');
    expect((await lockout.findByRole('alert')).textContent).toBe("We're facing some difficulties, Please try again");
    expect(lockout.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('is view-only without the write permission, and honours the host’s hidden and view-only cards and fields', async () => {
    const { api } = policyApi(STORED);
    const readOnly = openTab(api, { canWrite: false });
    const lockout = await card(readOnly.view, 'Account lockout');
    expect(((await lockout.findByLabelText('Failed attempts before lockout')) as HTMLInputElement).readOnly).toBe(true);
    expect((lockout.getByRole('switch', { name: 'Lock accounts after failed sign-ins' }) as HTMLInputElement).disabled).toBe(true);
    expect((await (await card(readOnly.view, 'Multi-factor authentication')).findByLabelText('Require MFA') as HTMLInputElement).readOnly).toBe(true);
    expect(readOnly.view.queryByRole('button', { name: 'Save' })).toBeNull();
    document.body.innerHTML = '';

    const hosted = openTab(api, { adminPortal: { fieldVisibility: { security: { captcha: 'hidden', userEmails: 'viewOnly', 'password.maxLength': 'hidden', 'password.minLength': 'viewOnly' } } } });
    const rules = await card(hosted.view, 'Password rules');
    expect(((await rules.findByLabelText('Minimum length')) as HTMLInputElement).readOnly).toBe(true);
    expect(rules.queryByLabelText('Maximum length')).toBeNull();
    expect(rules.getByRole('button', { name: 'Save' })).toBeTruthy();
    const emails = await card(hosted.view, 'User emails');
    await emails.findByRole('switch', { name: 'Let users change their email address' });
    expect(emails.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(hosted.view.queryByRole('region', { name: 'Captcha' })).toBeNull();
  });
});
