import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import ProfileSection from './profile';

/** The text of every live region: the form's own, and the toast a saved change shows. */
const statusText = (view: ReturnType<typeof within>) => view.getAllByRole('status').map((s: HTMLElement) => s.textContent ?? '').join('');

const USERNAME = '/identity/resources/users/usernames/v1/me';

interface Call { method: string; path: string; body?: unknown }

function recordingApi(failures: { method: string; error: { message: string; statusCode: number } }[] = []) {
  const calls: Call[] = [];
  const api = {
    async request(method: string, path: string, options: { body?: unknown } = {}) {
      calls.push({ method, path, ...options });
      const failure = failures.find((f) => f.method === method);
      if (failure) throw Object.assign(new Error(failure.error.message), failure.error);
      return {};
    },
  } as unknown as GatehouseApi;
  return { api, calls };
}

function openProfile(username: string | null, api: GatehouseApi, adminPortal?: Record<string, unknown>) {
  const { domElement } = shadowMountPoint();
  const user = makeUser({ username });
  const store = createTestStore(user);
  render(<ProfileSection title="Profile" headingId="profile-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions(adminPortal)} />, { container: domElement });
  const view = within(domElement);
  return { view, store, field: () => view.getByLabelText('Username') as HTMLInputElement };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('profile section: username save (seed 001 section 5)', () => {
  it('unchanged is a no-op: no username call, nothing saved', async () => {
    const { api, calls } = recordingApi();
    const { view, store, field } = openProfile('ada', api);
    expect(field().value).toBe('ada');
    fireEvent.change(field(), { target: { value: ' ada ' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(statusText(view)).toBe('No changes to save'));
    expect(calls).toEqual([]);
    expect(store.updates).toEqual([]);
  });

  it('a changed value deletes the old username first, then creates the new one, then reloads the profile', async () => {
    const { api, calls } = recordingApi();
    const { view, store, field } = openProfile('ada', api);
    fireEvent.change(field(), { target: { value: 'ada.l' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    // The snapshot prop is fixed here (the portal shell passes the live one), so the save is read from the store.
    await waitFor(() => expect(store.updates).toEqual([{}]));
    expect(calls).toEqual([{ method: 'DELETE', path: USERNAME }, { method: 'POST', path: USERNAME, body: { username: 'ada.l' } }]);
  });

  it('an empty new value just removes it; a first username is only created', async () => {
    const removed = recordingApi();
    const first = openProfile('ada', removed.api);
    fireEvent.change(first.field(), { target: { value: '' } });
    fireEvent.click(first.view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(first.store.updates).toEqual([{}]));
    expect(removed.calls).toEqual([{ method: 'DELETE', path: USERNAME }]);

    document.body.innerHTML = '';
    const created = recordingApi();
    const second = openProfile(null, created.api);
    fireEvent.change(second.field(), { target: { value: 'ada' } });
    fireEvent.click(second.view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(second.store.updates).toEqual([{}]));
    expect(created.calls).toEqual([{ method: 'POST', path: USERNAME, body: { username: 'ada' } }]);
  });

  it('checks the username before any call, and shows a taken username under the field without saving the rest', async () => {
    const { api, calls } = recordingApi([{ method: 'POST', error: { message: 'This username is already taken', statusCode: 409 } }]);
    const { view, store, field } = openProfile(null, api);
    fireEvent.change(field(), { target: { value: 'ada lovelace' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    expect(view.getByText('Use 3 to 64 letters, digits, dots, dashes or underscores.')).toBeTruthy();
    expect(field().getAttribute('aria-invalid')).toBe('true');
    expect(calls).toEqual([]);

    fireEvent.change(field(), { target: { value: 'grace' } });
    fireEvent.change(view.getByLabelText('Job title'), { target: { value: 'Admiral' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    expect(await view.findByText('This username is already taken')).toBeTruthy();
    expect(store.updates).toEqual([]);
  });

  it('view-only shows the username read-only and never saves it; hidden leaves it out', async () => {
    const { api, calls } = recordingApi();
    const { view, field } = openProfile('ada', api, { fieldVisibility: { profile: { username: 'viewOnly' } } });
    expect(field().readOnly).toBe(true);
    fireEvent.change(field(), { target: { value: 'other' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(statusText(view)).toBe('No changes to save'));
    expect(calls).toEqual([]);

    document.body.innerHTML = '';
    const hidden = openProfile('ada', recordingApi().api, { fieldVisibility: { profile: { username: 'hidden' } } });
    expect(hidden.view.queryByLabelText('Username')).toBeNull();
  });
});
