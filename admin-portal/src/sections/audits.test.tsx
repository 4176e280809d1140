import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_COLUMNS } from '@gatehouse/shared/admin-paths';
import type { AuditRecord } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import AuditsSection from './audits';

interface Call { method: string; path: string; body?: unknown; query?: Record<string, unknown>; responseType?: string }

function record(i: number, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return { id: `a${i}`, createdAt: new Date(Date.UTC(2026, 5, 10, 12, 0, i)).toISOString(), email: `admin${i}@example.com`, action: 'Role created', description: `Role number ${i} created`, ip: '10.0.0.1', severity: 'Info', userAgent: 'Mozilla', json: null, tenantId: 't', ...overrides };
}

/** The API boundary: records every call and answers a tenant with `total` records. */
function recordingApi(total: number, opts: { failList?: boolean; failExport?: boolean } = {}) {
  const calls: Call[] = [];
  let releaseExport: () => void = () => {};
  const api = {
    async request(method: string, path: string, options: Omit<Call, 'method' | 'path'> = {}) {
      calls.push({ method, path, ...options });
      if (path === '/audits/metadata') return { columns: AUDIT_COLUMNS };
      if (path === '/audits/stats') return { total, totalToday: 3, severeThisWeek: 2 };
      if (path === '/audits') {
        if (opts.failList) throw Object.assign(new Error('Not authorized'), { statusCode: 403 });
        const offset = Number(options.query?.offset ?? 0);
        return { data: Array.from({ length: Math.max(0, Math.min(20, total - offset)) }, (_, i) => record(offset + i, i === 0 ? { severity: 'High' } : {})), total };
      }
      if (path === '/audits/export/csv') {
        await new Promise<void>((resolve) => (releaseExport = resolve));
        if (opts.failExport) throw new Error('export failed');
        return new Blob(['"Time"\r\n'], { type: 'text/csv' });
      }
      return {};
    },
  } as unknown as GatehouseApi;
  return { api, calls, releaseExport: () => releaseExport() };
}

async function openAudits(total: number, opts: { failList?: boolean; failExport?: boolean; adminPortal?: Record<string, unknown> } = {}) {
  const recording = recordingApi(total, opts);
  const { domElement } = shadowMountPoint();
  const user = makeUser({ id: 'me', permissions: [{ id: 'p', key: 'fe.secure.read.audits', name: 'Read audits' }] });
  render(<AuditsSection title="Audit logs" headingId="audits-heading" user={user} snapshot={createTestStore(user).getSnapshot()} store={createTestStore(user)} api={recording.api} options={readAdminPortalOptions(opts.adminPortal)} />, { container: domElement });
  return { view: within(domElement), ...recording };
}

describe('audits section', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the stats, the table columns from metadata and the first 20 records, newest first', async () => {
    const { view, calls } = await openAudits(45);
    expect(await view.findByRole('cell', { name: 'Role number 0 created' })).toBeTruthy();
    expect(view.getAllByRole('columnheader').map((h) => h.textContent?.replace(/\s*[↑↓]$/, ''))).toEqual(AUDIT_COLUMNS.filter((c) => c.showInTable).map((c) => c.displayName));
    expect(view.getAllByRole('row')).toHaveLength(21);
    const stats = view.getByLabelText('Audit statistics');
    expect(stats.textContent).toContain('Total 45');
    expect(stats.textContent).toContain('Today 3');
    expect(stats.textContent).toContain('High severity this week 2');
    expect(view.getByText('Page 1 of 3')).toBeTruthy();
    expect(calls.find((c) => c.path === '/audits')?.query).toEqual({ offset: 0, count: 20, sortBy: 'createdAt', sortDirection: 'desc' });
  });

  it('pages with offset, sorts oldest first and sends the column filters, back to the first page', async () => {
    const { view, calls } = await openAudits(45);
    await view.findByRole('cell', { name: 'Role number 0 created' });
    fireEvent.click(view.getByRole('button', { name: 'Next' }));
    expect(await view.findByRole('cell', { name: 'Role number 20 created' })).toBeTruthy();
    expect(calls.filter((c) => c.path === '/audits').at(-1)?.query).toMatchObject({ offset: 20, count: 20 });

    fireEvent.click(view.getByRole('button', { name: /Time/ }));
    await waitFor(() => expect(calls.filter((c) => c.path === '/audits').at(-1)?.query).toMatchObject({ offset: 0, sortDirection: 'asc' }));
    fireEvent.change(view.getByLabelText('Severity'), { target: { value: 'High' } });
    fireEvent.change(view.getByLabelText('User email'), { target: { value: 'ada@example.com' } });
    await waitFor(() => expect(calls.filter((c) => c.path === '/audits').at(-1)?.query).toEqual({ offset: 0, count: 20, sortBy: 'createdAt', sortDirection: 'asc', severity: 'High', email: 'ada@example.com' }));
  });

  it('shows a failed load in an alert', async () => {
    const { view } = await openAudits(5, { failList: true });
    expect((await view.findByRole('alert')).textContent).toBe('Not authorized');
  });

  it('exports audits.csv with headerProps from the metadata columns and offset 0, marking the button busy meanwhile', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { view, calls, releaseExport } = await openAudits(45);
    await view.findByRole('cell', { name: 'Role number 0 created' });
    fireEvent.change(view.getByLabelText('Severity'), { target: { value: 'High' } });
    fireEvent.click(view.getByRole('button', { name: 'Export CSV' }));
    const busy = await view.findByRole('button', { name: 'Exporting…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    const request = calls.find((c) => c.path === '/audits/export/csv')!;
    expect(request).toMatchObject({ method: 'POST', responseType: 'blob' });
    expect(request.body).toEqual({ sortBy: 'createdAt', sortDirection: 'desc', offset: 0, filters: { severity: 'High' }, headerProps: AUDIT_COLUMNS.filter((c) => c.showInTable).map((c) => ({ name: c.name, displayName: c.displayName })) });
    releaseExport();
    expect(await view.findByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(click).toHaveBeenCalledTimes(1);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('audits.csv');
  });

  it('only logs a failed export (seed 001 section 8) and clears the downloading flag', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { view, releaseExport } = await openAudits(3, { failExport: true });
    await view.findByRole('cell', { name: 'Role number 0 created' });
    fireEvent.click(view.getByRole('button', { name: 'Export CSV' }));
    await view.findByRole('button', { name: 'Exporting…' });
    releaseExport();
    expect(await view.findByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(logged).toHaveBeenCalledWith('Audit export failed', expect.any(Error));
    expect(view.queryByRole('alert')).toBeNull();
  });

  it("honours the host's field visibility for the export: hidden, or shown disabled when view-only", async () => {
    const hidden = await openAudits(3, { adminPortal: { fieldVisibility: { audits: { exportCsv: 'hidden' } } } });
    await hidden.view.findByText('Role number 0 created');
    expect(hidden.view.queryByRole('button', { name: /Export CSV/ })).toBeNull();
    document.body.innerHTML = '';
    const viewOnly = await openAudits(3, { adminPortal: { fieldVisibility: { audits: { exportCsv: 'viewOnly' } } } });
    await viewOnly.view.findByText('Role number 0 created');
    expect((viewOnly.view.getByRole('button', { name: /Export CSV/ }) as HTMLButtonElement).disabled).toBe(true);
  });
});
