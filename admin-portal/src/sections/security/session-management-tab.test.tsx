import { act, fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SecurityPaths } from '@gatehouse/shared/admin-paths';
import type { GatehouseApi } from '../../contract';
import { readAdminPortalOptions } from '../../options';
import { createTestStore, makeUser, shadowMountPoint } from '../../test/fake-store';
import { policyApi } from '../../test/security-api';
import SessionManagementTab from './session-management-tab';

const PATH = SecurityPaths.sessionsPolicy;
const STORED = {
  sessionIdleTimeoutConfiguration: { isActive: false, timeout: 1_800 },
  sessionTimeoutConfiguration: { isActive: true, timeout: 7 * 86_400 },
  sessionConcurrentConfiguration: { isActive: false, maxSessions: 5 },
};

function openTab(api: GatehouseApi, { canWrite = true, adminPortal, target }: { canWrite?: boolean; adminPortal?: unknown; target?: string } = {}) {
  const { domElement, root } = shadowMountPoint();
  const user = makeUser();
  const store = createTestStore(user);
  const results: boolean[] = [];
  render(
    <SessionManagementTab
      title="Security"
      headingId="security-heading"
      user={user}
      snapshot={store.getSnapshot()}
      store={store}
      api={api}
      options={readAdminPortalOptions(adminPortal)}
      canWrite={canWrite}
      openTab={() => {}}
      onResult={(ok) => results.push(ok)}
      {...(target ? { target, focusRequest: 1 } : {})}
    />,
    { container: domElement },
  );
  return { view: within(domElement), root, results };
}

const posts = (calls: { method: string; path: string; query?: Record<string, unknown>; body?: unknown }[]) => calls.filter((c) => c.method === 'POST');

afterEach(() => {
  document.body.innerHTML = '';
});

describe('sessionManagement tab', () => {
  it('shows each timeout in the unit that holds it, and the toggles as stored', async () => {
    const { api } = policyApi({ [PATH]: STORED });
    const { view } = openTab(api);
    const idle = (await view.findByLabelText('Idle for')) as HTMLInputElement;
    expect(idle.value).toBe('30');
    expect((view.getByLabelText('Unit of “Idle for”') as HTMLSelectElement).value).toBe('minutes');
    expect((view.getByLabelText('Sign in again after') as HTMLInputElement).value).toBe('7');
    expect((view.getByLabelText('Unit of “Sign in again after”') as HTMLSelectElement).value).toBe('days');
    expect((view.getByRole('switch', { name: 'Make users sign in again' }) as HTMLInputElement).checked).toBe(true);
    expect((view.getByRole('switch', { name: 'Sign out idle sessions' }) as HTMLInputElement).checked).toBe(false);
    expect(view.getByRole('group', { name: 'Idle timeout' })).toBeTruthy();
    expect(view.getByRole('group', { name: 'Concurrent sessions' })).toBeTruthy();
  });

  it('previews the dry run’s effects, saves in seconds only on Confirm, and reports true', async () => {
    const { api, calls, policies } = policyApi({ [PATH]: STORED }, {
      effects: () => [{ code: 'SESSIONS_SIGNED_OUT', affected: 3, total: 9, message: 'The new idle timeout signs out 3 sessions now.' }],
    });
    const { view, root, results } = openTab(api);
    fireEvent.click(await view.findByRole('switch', { name: 'Sign out idle sessions' }));
    fireEvent.change(view.getByLabelText('Idle for'), { target: { value: '2' } });
    fireEvent.change(view.getByLabelText('Unit of “Idle for”'), { target: { value: 'hours' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    const confirm = await view.findByRole('button', { name: 'Confirm and save' });
    expect(view.getByText('The new idle timeout signs out 3 sessions now.')).toBeTruthy();
    await waitFor(() => expect(root.activeElement).toBe(confirm));
    expect(posts(calls)).toHaveLength(1);
    expect(posts(calls)[0]!.query).toEqual({ dryRun: 'true' });
    expect(policies[PATH]!.id).toBeUndefined();

    fireEvent.click(confirm);
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Session settings saved'));
    expect(posts(calls)).toHaveLength(2);
    expect(posts(calls)[1]!.query).toBeUndefined();
    expect(posts(calls)[1]!.body).toEqual({ ...STORED, sessionIdleTimeoutConfiguration: { isActive: true, timeout: 7_200 } });
    expect(policies[PATH]!.sessionIdleTimeoutConfiguration).toEqual({ isActive: true, timeout: 7_200 });
    expect(results).toEqual([true]);
  });

  it('saves at once, with a short note, when the dry run finds no effect; Cancel on a preview saves nothing', async () => {
    const { api, calls } = policyApi({ [PATH]: STORED }, {
      effects: (_path, body) => ((body.sessionConcurrentConfiguration as { maxSessions: number }).maxSessions < 3 ? [{ code: 'SESSIONS_SIGNED_OUT', affected: 4, message: '4 sessions over the limit end now.' }] : []),
    });
    const { view } = openTab(api);
    fireEvent.click(await view.findByRole('switch', { name: 'Limit sessions per user' }));
    fireEvent.change(view.getByLabelText('Sessions per user'), { target: { value: '2' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    fireEvent.click(await view.findByRole('button', { name: 'Cancel' }));
    expect(view.queryByText('4 sessions over the limit end now.')).toBeNull();
    expect(posts(calls).filter((c) => !c.query)).toEqual([]);

    fireEvent.change(view.getByLabelText('Sessions per user'), { target: { value: '3' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Session settings saved. No users or sessions are affected.'));
    expect(posts(calls).filter((c) => !c.query).map((c) => c.body)).toEqual([{ ...STORED, sessionConcurrentConfiguration: { isActive: true, maxSessions: 3 } }]);
  });

  it('shows the server’s refusal of a looser value under its field, keeps the edits, focuses it and reports false', async () => {
    const message = 'sessionTimeoutConfiguration.timeout: Forced re-login can’t be longer than the vendor’s 1 day';
    const { api, calls } = policyApi({ [PATH]: STORED }, { failures: [{ method: 'POST', path: PATH, dryRun: true, error: { message, statusCode: 400 } }] });
    const { view, root, results } = openTab(api);
    fireEvent.change(await view.findByLabelText('Sign in again after'), { target: { value: '30' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    const field = view.getByLabelText('Sign in again after') as HTMLInputElement;
    expect(await view.findByText('Forced re-login can’t be longer than the vendor’s 1 day')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toContain(`${field.id}-error`);
    await waitFor(() => expect(root.activeElement).toBe(field));
    expect(field.value).toBe('30');
    expect(results).toEqual([false]);
    expect(posts(calls).filter((c) => !c.query)).toEqual([]);
  });

  it('says a timeout looser than the vendor’s in the field’s units, not the API’s seconds', async () => {
    const error = { message: "sessionTimeoutConfiguration.timeout: the forced re-login may be at most the vendor's 86400 seconds, got 172800", statusCode: 400, errorCode: 'ER-02801', errorContext: { field: 'sessionTimeoutConfiguration.timeout', vendorValue: 86_400 } };
    const { api } = policyApi({ [PATH]: STORED }, { failures: [{ method: 'POST', path: PATH, dryRun: true, error: error as never }] });
    const { view } = openTab(api);
    fireEvent.change(await view.findByLabelText('Sign in again after'), { target: { value: '2' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    expect(await view.findByText('This is longer than the vendor allows: at most 1 day.')).toBeTruthy();
  });

  it('refuses a timeout out of bounds before calling, and says "No changes to update" for an unchanged form', async () => {
    const { api, calls } = policyApi({ [PATH]: STORED });
    const { view } = openTab(api);
    fireEvent.click(await view.findByRole('button', { name: 'Save' }));
    expect(view.getByRole('status').textContent).toBe('No changes to update');
    fireEvent.change(view.getByLabelText('Idle for'), { target: { value: '0' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    expect(await view.findByText('Enter a whole number of minutes from 1 to 525,600.')).toBeTruthy();
    expect(posts(calls)).toEqual([]);
  });

  it('is view-only without the write permission: read-only fields, disabled switches, no Save', async () => {
    const { api } = policyApi({ [PATH]: STORED });
    const { view } = openTab(api, { canWrite: false });
    expect(((await view.findByLabelText('Idle for')) as HTMLInputElement).readOnly).toBe(true);
    expect((view.getByRole('switch', { name: 'Sign out idle sessions' }) as HTMLInputElement).disabled).toBe(true);
    expect(view.getByText('minutes')).toBeTruthy();
    expect(view.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('hides or freezes each setting the host names in fieldVisibility.security', async () => {
    const { api } = policyApi({ [PATH]: STORED });
    const { view } = openTab(api, { adminPortal: { fieldVisibility: { security: { maxConcurrentSessions: 'hidden', forceRelogin: 'viewOnly' } } } });
    expect(await view.findByLabelText('Idle for')).toBeTruthy();
    expect(view.queryByRole('group', { name: 'Concurrent sessions' })).toBeNull();
    expect((view.getByLabelText('Sign in again after') as HTMLInputElement).readOnly).toBe(true);
    expect((view.getByLabelText('Idle for') as HTMLInputElement).readOnly).toBe(false);
  });

  it('moves focus to the setting a target names once loaded (a security-center action)', async () => {
    const { api } = policyApi({ [PATH]: STORED });
    const { view, root } = openTab(api, { target: 'sessionManagement:maxConcurrentSessions' });
    const toggle = await view.findByRole('switch', { name: 'Limit sessions per user' });
    await waitFor(() => expect(root.activeElement).toBe(toggle));
  });

  it('shows a skeleton while loading and the saving state on the button while the dry run runs', async () => {
    const pending: Array<{ resolve: (value: unknown) => void }> = [];
    const { api: inner } = policyApi({ [PATH]: STORED });
    const api = { request: (method: string, path: string, options?: object) => new Promise((resolve) => pending.push({ resolve: () => resolve(inner.request(method as 'GET', path, options)) })) } as unknown as GatehouseApi;
    const { view } = openTab(api);
    expect(view.getByText('Loading security policy…')).toBeTruthy();
    expect(view.getByRole('region', { name: 'Sessions' }).getAttribute('aria-busy')).toBe('true');
    act(() => pending.shift()!.resolve(undefined));
    fireEvent.change(await view.findByLabelText('Idle for'), { target: { value: '45' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    const busy = view.getByRole('button', { name: 'Saving…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    act(() => pending.shift()!.resolve(undefined));
    // No effects: the save itself follows at once, the button still busy until it answers.
    await waitFor(() => expect(pending).toHaveLength(1));
    expect(view.getByRole('button', { name: 'Saving…' })).toBeTruthy();
    act(() => pending.shift()!.resolve(undefined));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Session settings saved. No users or sessions are affected.'));
    expect(view.getByRole('button', { name: 'Save' })).toBeTruthy();
  });

  it('shows a load failure with Try again, which loads again', async () => {
    let fail = true;
    const { api: inner } = policyApi({ [PATH]: STORED });
    const api = { request: (method: string, path: string, options?: object) => (fail ? Promise.reject(Object.assign(new Error('Service unavailable'), { statusCode: 503 })) : inner.request(method as 'GET', path, options)) } as unknown as GatehouseApi;
    const { view } = openTab(api);
    expect((await view.findByRole('alert')).textContent).toBe('Service unavailable');
    fail = false;
    fireEvent.click(view.getByRole('button', { name: 'Try again' }));
    expect(await view.findByLabelText('Idle for')).toBeTruthy();
  });
});
