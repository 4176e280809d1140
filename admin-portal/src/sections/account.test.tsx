import { act, fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccountSettingsView } from '@gatehouse/shared/admin-paths';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import AccountSection from './account';

const PATH = '/tenants/resources/account-settings/v1';
const STORED: AccountSettingsView = {
  tenantId: 'tenant-1',
  companyName: 'Analytical Engines',
  website: 'https://engines.example.com',
  address: '12 St James Square',
  timezone: 'Europe/London',
  dateFormat: 'DD/MM/YYYY',
  timeFormat: 'HH:mm',
  currency: 'GBP',
  logo: null,
  hasCustomLogin: false,
  loginTitle: null,
  loginColor: null,
  applicationUrl: null,
  updatedAt: null,
};

interface Call { method: string; path: string; body?: Record<string, unknown> }

/** The API boundary: answers the stored settings, applies a PUT, or fails it with `failure`. */
function recordingApi(failure?: { message: string; statusCode: number }) {
  const calls: Call[] = [];
  let stored = { ...STORED };
  const api = {
    async request(method: string, path: string, options: { body?: Record<string, unknown> } = {}) {
      calls.push({ method, path, ...options });
      if (path !== PATH) throw new Error(`unexpected ${method} ${path}`);
      if (method === 'GET') return stored;
      if (failure) throw Object.assign(new Error(failure.message), { kind: 'GatehouseError', ...failure });
      const { logo, ...rest } = options.body ?? {};
      stored = { ...stored, ...rest, ...(logo !== undefined ? { logo: logo ? 'https://id.example.com/logo/1' : null } : {}) } as AccountSettingsView;
      return stored;
    },
  } as unknown as GatehouseApi;
  return { api, calls };
}

async function openAccount({ permissions = ['fe.secure.read.accountSettings', 'fe.secure.write.accountSettings'], adminPortal, failure }: { permissions?: string[]; adminPortal?: unknown; failure?: { message: string; statusCode: number } } = {}) {
  const { api, calls } = recordingApi(failure);
  const { domElement, root } = shadowMountPoint();
  const user = makeUser({ permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const store = createTestStore(user);
  render(<AccountSection title="Account settings" headingId="account-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions(adminPortal)} />, { container: domElement });
  const view = within(domElement);
  await view.findByLabelText('Company name');
  return { view, calls, root };
}

const puts = (calls: Call[]) => calls.filter((c) => c.method === 'PUT');

afterEach(() => {
  document.body.innerHTML = '';
});

describe('account section', () => {
  it('shows the settings tab with pickers, and moves between tabs with the arrow, Home and End keys', async () => {
    const { view, root } = await openAccount();
    expect((view.getByLabelText('Company name') as HTMLInputElement).value).toBe('Analytical Engines');
    expect((view.getByRole('combobox', { name: 'Time zone' }) as HTMLInputElement).value).toMatch(/^Europe\/London/);
    const currency = view.getByRole('combobox', { name: 'Currency' }) as HTMLInputElement;
    expect(currency.value).toMatch(/^GBP · /);
    // The searchable picker: the list opens on the chosen option, and typing narrows it.
    fireEvent.keyDown(currency, { key: 'ArrowDown' });
    expect(within(view.getByRole('listbox', { name: 'Currency' })).getByRole('option', { selected: true }).textContent).toMatch(/^GBP/);
    fireEvent.change(currency, { target: { value: 'euro' } });
    expect(within(view.getByRole('listbox', { name: 'Currency' })).getAllByRole('option')[0]!.textContent).toBe('EUR · Euro');
    fireEvent.keyDown(currency, { key: 'Escape' });
    fireEvent.keyDown(currency, { key: 'Escape' });
    expect(currency.value).toMatch(/^GBP · /);
    expect((view.getByLabelText('Date format') as HTMLSelectElement).value).toBe('DD/MM/YYYY');

    const tablist = view.getByRole('tablist', { name: 'Account details' });
    const [settingsTab, loginTab] = within(tablist).getAllByRole('tab');
    expect(settingsTab!.getAttribute('aria-selected')).toBe('true');
    expect(loginTab!.tabIndex).toBe(-1);
    act(() => settingsTab!.focus());
    fireEvent.keyDown(settingsTab!, { key: 'ArrowRight' });
    expect(loginTab!.getAttribute('aria-selected')).toBe('true');
    expect(root.activeElement).toBe(loginTab);
    expect(view.getByRole('tabpanel', { name: 'Custom login' })).toBeTruthy();
    fireEvent.keyDown(loginTab!, { key: 'ArrowRight' });
    expect(root.activeElement).toBe(settingsTab);
    fireEvent.keyDown(settingsTab!, { key: 'End' });
    expect(root.activeElement).toBe(loginTab);
    fireEvent.keyDown(loginTab!, { key: 'Home' });
    expect(settingsTab!.getAttribute('aria-selected')).toBe('true');
  });

  it('sends only the changed fields, shows the saving state, then "Account settings saved"', async () => {
    const { view, calls } = await openAccount();
    fireEvent.change(view.getByLabelText('Company name'), { target: { value: 'Difference Engines' } });
    const zone = view.getByRole('combobox', { name: 'Time zone' });
    fireEvent.change(zone, { target: { value: 'tokyo' } });
    fireEvent.keyDown(zone, { key: 'Enter' });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    expect(view.getByRole('button', { name: 'Saving…' })).toBeTruthy();
    await waitFor(() => expect(view.getAllByRole('status').some((s) => s.textContent === 'Account settings saved')).toBe(true));
    expect(puts(calls).map((c) => c.body)).toEqual([{ companyName: 'Difference Engines', timezone: 'Asia/Tokyo' }]);
  });

  it("says 'No changes to update' and calls nothing when the custom login is saved unchanged", async () => {
    const { view, calls } = await openAccount();
    fireEvent.click(view.getByRole('tab', { name: 'Custom login' }));
    const panel = view.getByRole('tabpanel', { name: 'Custom login' });
    fireEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(within(panel).getByRole('status').textContent).toBe('No changes to update');
    expect(puts(calls)).toEqual([]);

    fireEvent.click(within(panel).getByLabelText('Use a custom login box'));
    fireEvent.change(within(panel).getByLabelText('Login title'), { target: { value: 'Welcome back' } });
    expect(within(panel).getByText('Welcome back')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(panel).getByRole('status').textContent).toBe('Custom login saved'));
    expect(puts(calls).map((c) => c.body)).toEqual([{ hasCustomLogin: true, loginTitle: 'Welcome back' }]);
  });

  it("shows the server's message under the field it names, keeps every edit, and focuses the field", async () => {
    const { view, root } = await openAccount({ failure: { message: 'website: website must be a web address starting with http:// or https://', statusCode: 400 } });
    fireEvent.change(view.getByLabelText('Company name'), { target: { value: 'Kept name' } });
    fireEvent.change(view.getByLabelText('Website'), { target: { value: 'not a website' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.getByText('website must be a web address starting with http:// or https://')).toBeTruthy());
    const website = view.getByLabelText('Website') as HTMLInputElement;
    expect(website.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(root.activeElement).toBe(website));
    expect(website.value).toBe('not a website');
    expect((view.getByLabelText('Company name') as HTMLInputElement).value).toBe('Kept name');
  });

  it("shows the seed's generic message when the save fails without one", async () => {
    const { view } = await openAccount({ failure: { message: '', statusCode: 500 } });
    fireEvent.change(view.getByLabelText('Address'), { target: { value: '1 New Street' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    expect((await view.findByRole('alert')).textContent).toBe("We're facing some difficulties, Please try again");
    expect((view.getByLabelText('Address') as HTMLInputElement).value).toBe('1 New Street');
  });

  it('refuses an empty company name before calling', async () => {
    const { view, calls } = await openAccount();
    fireEvent.change(view.getByLabelText('Company name'), { target: { value: '  ' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    expect(await view.findByText('Enter the company name')).toBeTruthy();
    expect(puts(calls)).toEqual([]);
  });

  it('shows readers every field read-only and no Save button', async () => {
    const { view } = await openAccount({ permissions: ['fe.secure.read.accountSettings'] });
    expect((view.getByLabelText('Company name') as HTMLInputElement).readOnly).toBe(true);
    expect((view.getByLabelText('Time zone') as HTMLInputElement).readOnly).toBe(true);
    expect((view.getByLabelText('Time zone') as HTMLInputElement).value).toMatch(/^Europe\/London/);
    expect(view.queryByLabelText('Logo')).toBeNull();
    expect(view.queryByRole('button', { name: 'Save' })).toBeNull();
    fireEvent.click(view.getByRole('tab', { name: 'Custom login' }));
    expect((view.getByLabelText('Use a custom login box') as HTMLInputElement).disabled).toBe(true);
    expect(view.getByText(/You can view these settings/)).toBeTruthy();
  });

  it('hides or freezes each field and tab the host names in fieldVisibility.account', async () => {
    const { view, calls } = await openAccount({ adminPortal: { fieldVisibility: { account: { currency: 'hidden', website: 'viewOnly', customLogin: 'hidden', logo: 'hidden' } } } });
    expect(view.queryByLabelText('Currency')).toBeNull();
    expect(view.queryByLabelText('Logo')).toBeNull();
    expect((view.getByLabelText('Website') as HTMLInputElement).readOnly).toBe(true);
    expect(view.queryByRole('tab', { name: 'Custom login' })).toBeNull();
    fireEvent.change(view.getByLabelText('Address'), { target: { value: 'Elsewhere' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toEqual({ address: 'Elsewhere' });
  });

  it('previews a picked logo and uploads it as a data URL; refuses other file types', async () => {
    const { view, calls } = await openAccount();
    const input = view.getByLabelText('Logo') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' })] } });
    expect(await view.findByText('Choose a PNG, JPEG, GIF or WebP image.')).toBeTruthy();
    fireEvent.change(input, { target: { files: [new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' })] } });
    const preview = (await view.findByAltText('New logo preview')) as HTMLImageElement;
    expect(preview.src).toMatch(/^data:image\/png;base64,/);
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]!.body).toEqual({ logo: expect.stringMatching(/^data:image\/png;base64,/) });
    expect(await view.findByAltText('Current logo')).toBeTruthy();
  });
});
