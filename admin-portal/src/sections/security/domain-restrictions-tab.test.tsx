import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SecurityPaths } from '@gatehouse/shared/admin-paths';
import type { EmailDomainRestriction, EmailDomainRestrictionConfig } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';
import { readAdminPortalOptions } from '../../options';
import { createTestStore, makeUser, shadowMountPoint } from '../../test/fake-store';
import DomainRestrictionsTab from './domain-restrictions-tab';

interface Call { method: string; path: string; body?: Record<string, unknown> }
const fail = (statusCode: number, errorCode: string, message: string) => Object.assign(new Error(message), { kind: 'GatehouseError', statusCode, errorCode, message });

/** A small model of the server's email-domain restrictions: config, entries, and a 400 naming `domain` for text that is not a DNS name. */
function domainServer(initial: EmailDomainRestriction[] = [], config: EmailDomainRestrictionConfig = { active: false, listType: 'BLOCK', blockPublicDomains: false }) {
  const calls: Call[] = [];
  let entries = [...initial];
  let saved = config;
  let next = 1;
  const api = {
    async request(method: string, path: string, options: { body?: Record<string, unknown> } = {}) {
      calls.push({ method, path, ...(options.body ? { body: options.body } : {}) });
      const body = options.body ?? {};
      if (path === SecurityPaths.emailDomainRestrictionsConfig) return method === 'GET' ? saved : (saved = body as unknown as EmailDomainRestrictionConfig);
      if (path === SecurityPaths.emailDomainRestrictions && method === 'GET') return { items: entries, total: entries.length };
      if (path === SecurityPaths.emailDomainRestrictions && method === 'POST') {
        if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(String(body.domain))) throw fail(400, 'ER-00001', 'domain: Not a domain name');
        const created: EmailDomainRestriction = { id: `d-${next++}`, domain: String(body.domain), type: body.type as EmailDomainRestriction['type'], createdAt: '2026-11-01T00:00:00.000Z' };
        entries = [...entries, created];
        return created;
      }
      if (method === 'DELETE') {
        entries = entries.filter((e) => !path.endsWith(`/${e.id}`));
        return undefined;
      }
      throw new Error(`unexpected ${method} ${path}`);
    },
  } as unknown as GatehouseApi;
  return { api, calls, entries: () => entries, config: () => saved };
}

function openTab(api: GatehouseApi, { canWrite = true, adminPortal }: { canWrite?: boolean; adminPortal?: unknown } = {}) {
  const { domElement } = shadowMountPoint();
  const user = makeUser();
  const store = createTestStore(user);
  const results: boolean[] = [];
  render(
    <DomainRestrictionsTab title="Security" headingId="security-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions(adminPortal)} canWrite={canWrite} openTab={() => {}} onResult={(ok) => results.push(ok)} />,
    { container: domElement },
  );
  return { view: within(domElement), results };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('domainRestrictions tab', () => {
  it('saves the config: active, allow list and public domains blocked, in one POST', async () => {
    const server = domainServer();
    const { view, results } = openTab(server.api);
    const save = await view.findByRole('button', { name: 'Save' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(view.getByRole('switch', { name: 'Restrict sign-up by email domain' }));
    fireEvent.click(view.getByRole('radio', { name: /Allow list/ }));
    fireEvent.click(view.getByRole('checkbox', { name: /Block public email domains/ }));
    fireEvent.click(save);
    expect(await view.findByText('Email domain settings saved')).toBeTruthy();
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ active: true, listType: 'ALLOW', blockPublicDomains: true }]);
    expect(results).toEqual([true]);
    await waitFor(() => expect((view.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true));
  });

  it('adds a domain (an @ and capitals dropped) with its type, and deletes it', async () => {
    const server = domainServer();
    const { view, results } = openTab(server.api);
    await view.findByText('No domains yet.');
    fireEvent.change(view.getByLabelText('Domain'), { target: { value: ' @Example.COM ' } });
    fireEvent.change(view.getByLabelText('Type'), { target: { value: 'ALLOW' } });
    fireEvent.click(view.getByRole('button', { name: 'Add domain' }));
    const row = await view.findByRole('row', { name: /example\.com/ });
    expect(within(row).getAllByRole('cell')[0]?.textContent).toBe('Allow');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ domain: 'example.com', type: 'ALLOW' });
    expect((view.getByLabelText('Domain') as HTMLInputElement).value).toBe('');

    fireEvent.click(within(row).getByRole('button', { name: 'Delete example.com' }));
    fireEvent.click(within(await view.findByRole('dialog', { name: 'Delete example.com' })).getByRole('button', { name: 'Delete' }));
    expect(await view.findByText('example.com deleted')).toBeTruthy();
    expect(server.entries()).toEqual([]);
    expect(results).toEqual([true, true]);
  });

  it('shows the server’s refusal under the domain field and keeps what was typed; an empty domain is caught before any call', async () => {
    const server = domainServer();
    const { view, results } = openTab(server.api);
    await view.findByText('No domains yet.');
    fireEvent.click(view.getByRole('button', { name: 'Add domain' }));
    expect((await view.findByRole('alert')).textContent).toBe('Enter a domain, such as example.com');
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
    fireEvent.change(view.getByLabelText('Domain'), { target: { value: 'not a domain' } });
    fireEvent.click(view.getByRole('button', { name: 'Add domain' }));
    await waitFor(() => expect(view.getByLabelText('Domain').getAttribute('aria-invalid')).toBe('true'));
    expect(view.getByRole('alert').textContent).toBe('Not a domain name');
    expect((view.getByLabelText('Domain') as HTMLInputElement).value).toBe('not a domain');
    expect(results).toEqual([false]);
  });

  it('is view-only without the write permission, and hides what the host hides', async () => {
    const server = domainServer([{ id: 'd-1', domain: 'gmail.com', type: 'BLOCK', createdAt: '' }]);
    const { view } = openTab(server.api, { canWrite: false, adminPortal: { fieldVisibility: { security: { 'domainRestrictions.delete': 'hidden' } } } });
    await view.findByRole('rowheader', { name: 'gmail.com' });
    expect(view.getByRole('switch', { name: 'Restrict sign-up by email domain' }).matches(':disabled')).toBe(true);
    expect(view.queryByRole('button', { name: 'Save' })).toBeNull();
    expect((view.getByRole('button', { name: 'Add domain' }) as HTMLButtonElement).disabled).toBe(true);
    expect(view.queryByRole('button', { name: 'Delete gmail.com' })).toBeNull();
  });
});
