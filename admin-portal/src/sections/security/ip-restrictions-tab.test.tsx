import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MY_IP_DESCRIPTION, SecurityErrorCodes, SecurityPaths } from '@gatehouse/shared/admin-paths';
import type { IpRestriction, IpRestrictionConfig } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';
import { readAdminPortalOptions } from '../../options';
import { createTestStore, makeUser, shadowMountPoint } from '../../test/fake-store';
import IpRestrictionsTab from './ip-restrictions-tab';

const MY_IP = '203.0.113.7';

interface Call { method: string; path: string; body?: Record<string, unknown>; query?: Record<string, unknown> }

function entry(n: number, overrides: Partial<IpRestriction> = {}): IpRestriction {
  return { id: `ip-${n}`, ip: `198.51.100.${n}`, description: `Office ${n}`, isActive: true, strategy: 'BLOCK', createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z', ...overrides };
}

const fail = (statusCode: number, errorCode: string, message: string) => Object.assign(new Error(message), { kind: 'GatehouseError', statusCode, errorCode, message });

/**
 * A small model of the server's IP restrictions: a config, entries, "is my address let in" for
 * MY_IP, a 400 naming `ip` for text that is not an address, and the 409 self-lockout refusal for a
 * save that would shut MY_IP out (unless confirmSelfLockout).
 */
function ipServer(initial: { config?: IpRestrictionConfig; entries?: IpRestriction[] } = {}) {
  const calls: Call[] = [];
  let config: IpRestrictionConfig = initial.config ?? { isActive: false, strategy: 'BLOCK' };
  let entries = [...(initial.entries ?? [])];
  let next = 100;
  const allowed = (c: IpRestrictionConfig, list: IpRestriction[]) => {
    if (!c.isActive) return true;
    const listed = list.some((e) => e.isActive && e.ip === MY_IP && e.strategy === c.strategy);
    return c.strategy === 'ALLOW' ? listed : !listed;
  };
  const api = {
    async request(method: string, path: string, options: { body?: Record<string, unknown>; query?: Record<string, unknown> } = {}) {
      calls.push({ method, path, ...options });
      const body = options.body ?? {};
      const guard = (c: IpRestrictionConfig, list: IpRestriction[]) => {
        if (!allowed(c, list) && body.confirmSelfLockout !== true) throw fail(409, SecurityErrorCodes.selfLockout, 'This would block your own address');
      };
      if (path === SecurityPaths.ipRestrictionsConfig) {
        if (method === 'GET') return config;
        const wanted = { isActive: body.isActive as boolean, strategy: body.strategy as IpRestrictionConfig['strategy'] };
        guard(wanted, entries);
        return (config = wanted);
      }
      if (path === SecurityPaths.ipRestrictionsVerify) return { allowed: allowed(config, entries), ip: MY_IP };
      if (path === SecurityPaths.ipRestrictionsVerifyAllow) {
        const mine = entry(next++, { ip: MY_IP, description: MY_IP_DESCRIPTION, strategy: 'ALLOW' });
        entries = [...entries, mine];
        return mine;
      }
      if (path === SecurityPaths.ipRestrictions && method === 'GET') {
        const offset = Number(options.query?.offset ?? 0);
        const limit = Number(options.query?.limit ?? 10);
        return { items: entries.slice(offset, offset + limit), total: entries.length };
      }
      if (method === 'POST' || method === 'PATCH') {
        if (!/^[\d.:/a-f]+$/i.test(String(body.ip))) throw Object.assign(fail(400, 'ER-00001', 'ip: Not an IPv4 or IPv6 address or CIDR range'), {});
        const id = method === 'PATCH' ? path.split('/').pop()! : `ip-${next++}`;
        const saved: IpRestriction = { ...entry(0), id, ip: String(body.ip), description: String(body.description ?? ''), strategy: body.strategy as IpRestriction['strategy'], isActive: body.isActive !== false };
        const list = method === 'PATCH' ? entries.map((e) => (e.id === id ? saved : e)) : [...entries, saved];
        guard(config, list);
        entries = list;
        return saved;
      }
      if (method === 'DELETE') {
        const id = path.split('/').pop()!;
        const list = entries.filter((e) => e.id !== id);
        if (!allowed(config, list) && options.query?.confirmSelfLockout !== 'true') throw fail(409, SecurityErrorCodes.selfLockout, 'This would block your own address');
        entries = list;
        return undefined;
      }
      throw new Error(`unexpected ${method} ${path}`);
    },
  } as unknown as GatehouseApi;
  return { api, calls, entries: () => entries, config: () => config };
}

function openTab(api: GatehouseApi, { canWrite = true, adminPortal }: { canWrite?: boolean; adminPortal?: unknown } = {}) {
  const { domElement } = shadowMountPoint();
  const user = makeUser();
  const store = createTestStore(user);
  const results: boolean[] = [];
  render(
    <IpRestrictionsTab title="Security" headingId="security-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions(adminPortal)} canWrite={canWrite} openTab={() => {}} onResult={(ok) => results.push(ok)} />,
    { container: domElement },
  );
  return { view: within(domElement), results };
}

const rows = (view: ReturnType<typeof within>) => view.getAllByRole('row').slice(1);
const posts = (calls: Call[], path: string) => calls.filter((c) => c.method === 'POST' && c.path === path);

afterEach(() => {
  document.body.innerHTML = '';
});

describe('ipRestrictions tab', () => {
  it('lists 4 entries a page with ip, description, strategy and status, and pages on with the offset', async () => {
    const server = ipServer({ entries: [1, 2, 3, 4, 5, 6].map((n) => entry(n, n === 2 ? { strategy: 'ALLOW', isActive: false } : {})) });
    const { view } = openTab(server.api);
    await view.findByRole('rowheader', { name: '198.51.100.1' });
    expect(rows(view)).toHaveLength(4);
    expect(within(rows(view)[1]!).getAllByRole('cell').map((c) => c.textContent).slice(0, 3)).toEqual(['Office 2', 'Allow', 'Inactive']);
    expect(within(rows(view)[0]!).getAllByRole('cell')[1]?.textContent).toBe('Block');
    expect(view.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Next' }));
    await view.findByRole('rowheader', { name: '198.51.100.5' });
    expect(rows(view)).toHaveLength(2);
    expect(server.calls.filter((c) => c.method === 'GET' && c.path === SecurityPaths.ipRestrictions).map((c) => c.query)).toEqual([{ offset: 0, limit: 4 }, { offset: 4, limit: 4 }]);
  });

  it('says whether the caller’s address is allowed, and "Add my IP" allow-lists it as My IP', async () => {
    const server = ipServer({ config: { isActive: true, strategy: 'ALLOW' } });
    const { view, results } = openTab(server.api);
    expect((await view.findByText(`Your address ${MY_IP} would be blocked by these settings.`))).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Add my IP' }));
    expect(await view.findByText(`Your address ${MY_IP} was added to the allowed list`)).toBeTruthy();
    expect(posts(server.calls, SecurityPaths.ipRestrictionsVerifyAllow)).toHaveLength(1);
    expect(await view.findByText(`Your address ${MY_IP} is allowed.`)).toBeTruthy();
    const mine = await view.findByRole('row', { name: new RegExp(MY_IP.replace(/\./g, '\\.')) });
    expect(within(mine).getAllByRole('cell').map((c) => c.textContent).slice(0, 2)).toEqual([MY_IP_DESCRIPTION, 'Allow']);
    expect(results).toEqual([true]);
  });

  it('asks before a config save that would shut the admin out; Cancel saves nothing, confirming resends with confirmSelfLockout', async () => {
    const server = ipServer();
    const { view, results } = openTab(server.api);
    fireEvent.click(await view.findByRole('switch', { name: 'Restrict access by IP address' }));
    fireEvent.click(view.getByRole('radio', { name: /Allow list/ }));
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    const ask = await view.findByRole('dialog', { name: 'Block your own address?' });
    expect(ask.textContent).toContain(`This would block your own address (${MY_IP})`);
    expect(posts(server.calls, SecurityPaths.ipRestrictionsConfig).map((c) => c.body)).toEqual([{ isActive: true, strategy: 'ALLOW' }]);
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(server.config()).toEqual({ isActive: false, strategy: 'BLOCK' });
    expect(posts(server.calls, SecurityPaths.ipRestrictionsConfig)).toHaveLength(1);

    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    fireEvent.click(within(await view.findByRole('dialog', { name: 'Block your own address?' })).getByRole('button', { name: 'Save anyway' }));
    expect(await view.findByText('IP restriction settings saved')).toBeTruthy();
    expect(posts(server.calls, SecurityPaths.ipRestrictionsConfig).map((c) => c.body)).toEqual([
      { isActive: true, strategy: 'ALLOW' },
      { isActive: true, strategy: 'ALLOW' },
      { isActive: true, strategy: 'ALLOW', confirmSelfLockout: true },
    ]);
    expect(server.config()).toEqual({ isActive: true, strategy: 'ALLOW' });
    expect(results).toEqual([true]);
  });

  it('shows the server’s refusal of an invalid address under the IP field, keeps the dialog and what was typed, and reports false', async () => {
    const server = ipServer();
    const { view, results } = openTab(server.api);
    fireEvent.click(await view.findByRole('button', { name: 'Add address' }));
    const dialog = await view.findByRole('dialog', { name: 'Add an address or range' });
    fireEvent.change(within(dialog).getByLabelText('IP address or range'), { target: { value: '300.1.1.1/99x' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Typo' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add address' }));
    const field = within(dialog).getByLabelText('IP address or range');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByRole('alert').textContent).toBe('Not an IPv4 or IPv6 address or CIDR range');
    expect((field as HTMLInputElement).value).toBe('300.1.1.1/99x');
    expect((within(dialog).getByLabelText('Description') as HTMLInputElement).value).toBe('Typo');
    expect(results).toEqual([false]);
    expect(server.entries()).toEqual([]);
  });

  it('adds, edits and deletes an entry; an add that would shut the admin out is asked about in the dialog first', async () => {
    const server = ipServer({ config: { isActive: true, strategy: 'BLOCK' } });
    const { view, results } = openTab(server.api);
    fireEvent.click(await view.findByRole('button', { name: 'Add address' }));
    let dialog = await view.findByRole('dialog', { name: 'Add an address or range' });
    fireEvent.change(within(dialog).getByLabelText('IP address or range'), { target: { value: MY_IP } });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Block' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add address' }));
    dialog = await view.findByRole('dialog', { name: 'Block your own address?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Go back' }));
    dialog = await view.findByRole('dialog', { name: 'Add an address or range' });
    fireEvent.change(within(dialog).getByLabelText('IP address or range'), { target: { value: '198.51.100.0/24' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Branch office' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Allow' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add address' }));
    expect(await view.findByText('198.51.100.0/24 added')).toBeTruthy();
    expect(posts(server.calls, SecurityPaths.ipRestrictions).map((c) => c.body)).toEqual([
      { ip: MY_IP, description: '', strategy: 'BLOCK', isActive: true },
      { ip: '198.51.100.0/24', description: 'Branch office', strategy: 'ALLOW', isActive: true },
    ]);

    fireEvent.click(await view.findByRole('button', { name: 'Edit 198.51.100.0/24' }));
    dialog = await view.findByRole('dialog', { name: 'Edit address or range' });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Block' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await view.findByText('198.51.100.0/24 saved')).toBeTruthy();
    const patch = server.calls.find((c) => c.method === 'PATCH')!;
    expect(patch.path).toBe(SecurityPaths.ipRestriction.replace('{id}', server.entries()[0]!.id));
    expect(patch.body).toEqual({ ip: '198.51.100.0/24', description: 'Branch office', strategy: 'BLOCK', isActive: true });

    fireEvent.click(view.getByRole('button', { name: 'Delete 198.51.100.0/24' }));
    fireEvent.click(within(await view.findByRole('dialog', { name: 'Delete 198.51.100.0/24' })).getByRole('button', { name: 'Delete' }));
    expect(await view.findByText('198.51.100.0/24 deleted')).toBeTruthy();
    expect(server.entries()).toEqual([]);
    expect(await view.findByText('No addresses yet.')).toBeTruthy();
    expect(results).toEqual([true, true, true]);
  });

  it('asks before deleting the entry that lets the admin in; Cancel keeps it, Save anyway deletes with ?confirmSelfLockout=true', async () => {
    const mine = entry(1, { ip: MY_IP, description: MY_IP_DESCRIPTION, strategy: 'ALLOW' });
    const server = ipServer({ config: { isActive: true, strategy: 'ALLOW' }, entries: [mine] });
    const { view, results } = openTab(server.api);
    const remove = async () => {
      fireEvent.click(await view.findByRole('button', { name: `Delete ${MY_IP}` }));
      fireEvent.click(within(await view.findByRole('dialog', { name: `Delete ${MY_IP}` })).getByRole('button', { name: 'Delete' }));
      return view.findByRole('dialog', { name: 'Block your own address?' });
    };
    fireEvent.click(within(await remove()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(server.entries()).toEqual([mine]);
    fireEvent.click(within(await remove()).getByRole('button', { name: 'Save anyway' }));
    expect(await view.findByText(`${MY_IP} deleted`)).toBeTruthy();
    expect(server.calls.filter((c) => c.method === 'DELETE').map((c) => c.query)).toEqual([undefined, undefined, { confirmSelfLockout: 'true' }]);
    expect(server.entries()).toEqual([]);
    expect(results).toEqual([true]);
  });

  it('is view-only without the write permission: no add, edit or delete, the config disabled, "Add my IP" disabled', async () => {
    const server = ipServer({ entries: [entry(1)] });
    const { view } = openTab(server.api, { canWrite: false });
    await view.findByRole('rowheader', { name: '198.51.100.1' });
    expect(view.getByText(/Changing them needs the permission to manage security policies/)).toBeTruthy();
    expect(view.getByRole('switch', { name: 'Restrict access by IP address' }).matches(':disabled')).toBe(true);
    expect(view.queryByRole('button', { name: 'Save' })).toBeNull();
    expect((view.getByRole('button', { name: 'Add address' }) as HTMLButtonElement).disabled).toBe(true);
    expect((view.getByRole('button', { name: 'Add my IP' }) as HTMLButtonElement).disabled).toBe(true);
    expect((view.getByRole('button', { name: 'Delete 198.51.100.1' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('honours the host’s field visibility: a hidden list and a hidden "Add my IP" are not shown', async () => {
    const server = ipServer({ entries: [entry(1)] });
    const { view } = openTab(server.api, { adminPortal: { fieldVisibility: { security: { 'ipRestrictions.list': 'hidden', 'ipRestrictions.addMyIp': 'hidden' } } } });
    await view.findByRole('switch', { name: 'Restrict access by IP address' });
    expect(view.queryByRole('table')).toBeNull();
    expect(view.queryByRole('button', { name: 'Add my IP' })).toBeNull();
  });

  it('shows a failed load with a retry that loads again', async () => {
    const server = ipServer({ entries: [entry(1)] });
    let failing = true;
    const api = { request: (method: string, path: string, options?: object) => (failing && path === SecurityPaths.ipRestrictions ? Promise.reject(fail(500, 'ER-00000', 'The list is unavailable')) : server.api.request(method as 'GET', path, options)) } as unknown as GatehouseApi;
    const { view } = openTab(api);
    expect(await view.findByText('The list is unavailable')).toBeTruthy();
    failing = false;
    fireEvent.click(view.getAllByRole('button', { name: 'Try again' })[0]!);
    expect(await view.findByRole('rowheader', { name: '198.51.100.1' })).toBeTruthy();
  });
});
