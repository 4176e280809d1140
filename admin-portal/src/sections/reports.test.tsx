import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeDataFilters, ReportPaths } from '@gatehouse/shared/admin-paths';
import type { ReportTrigger, Role, TenantReport } from '@gatehouse/shared/wire';
import { chooseRowAction, rowMenuItems } from '../test/row-menu';
import { recordingApi, renderSection, type Failure } from '../test/section-harness';
import ReportsSection from './reports';

const REPORT: TenantReport = { id: 'rep-1', templateId: 'users-mfa', name: 'MFA review', dataFilters: { mfaEnrolled: false }, createdAt: Date.UTC(2026, 10, 1), updatedAt: Date.UTC(2026, 10, 2) };
const TRIGGER: ReportTrigger = { id: 'trg-1', reportId: 'rep-1', schedule: 'weekly', recipients: ['ciso@example.com'], enabled: true, nextRunAt: Date.UTC(2026, 10, 30, 7), lastRunAt: null, disabledReason: null, createdAt: 0, updatedAt: 0 };
const ROLES = [{ id: 'role-admin', key: 'Admin', name: 'Admin' }, { id: 'role-read', key: 'ReadOnly', name: 'Read only' }] as Role[];
const HTML = '<!doctype html><html><head><title>MFA review</title><style>body{padding:24px}</style></head><body><h1>MFA review</h1></body></html>';
const DATA = ['fe.secure.read.users', 'fe.secure.read.audits', 'fe.secure.read.securityPolicy'];
const WRITE = ['fe.reports.read.reports', 'fe.reports.write.reports', ...DATA];

function open({ reports = [REPORT], triggers = [TRIGGER], permissions = WRITE, failures = [] as Failure[] } = {}) {
  const { api, calls } = recordingApi((method, path) => {
    if (method === 'GET' && path === ReportPaths.tenantReports) return reports;
    if (method === 'GET' && path === ReportPaths.reportTriggers) return triggers;
    if (method === 'GET' && path === '/identity/resources/roles/v1') return ROLES;
    if (method === 'GET' && path === ReportPaths.previewReport) return HTML;
    if (method === 'GET' && path.endsWith('/download')) return new Blob(['%PDF-1.3'], { type: 'application/pdf' });
    if (method === 'POST' && path === ReportPaths.tenantReports) return { ...REPORT, id: 'rep-2' };
    if (method === 'POST' && path === ReportPaths.reportTriggers) return TRIGGER;
    return undefined;
  }, failures);
  return { view: renderSection(ReportsSection, 'Reports', api, permissions), calls };
}

beforeEach(() => {
  // jsdom has no object URLs: the download's link gets this one.
  URL.createObjectURL = vi.fn(() => 'blob:report');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('reports section', () => {
  it('lists the four templates, the saved reports and the schedules with their next run (UTC)', async () => {
    const { view, calls } = open();
    const row = await view.findByRole('row', { name: /^MFA review Users and MFA coverage/ });
    expect(within(row).getAllByRole('cell').map((c) => c.textContent).slice(0, 2)).toEqual(['Users and MFA coverage', 'Nov 2, 2026']);
    expect(view.getAllByRole('heading', { level: 4 }).map((h) => h.textContent)).toEqual(['Users and MFA coverage', 'Sign-in activity', 'Audit summary', 'Security posture']);
    const schedule = view.getByRole('row', { name: /ciso@example.com/ });
    expect(within(schedule).getAllByRole('cell').map((c) => c.textContent).slice(0, 3)).toEqual(['Weekly', 'ciso@example.com', 'Nov 30, 2026, 7:00 AM UTC']);
    expect(await rowMenuItems(view, 'Actions for MFA review')).toEqual(['Preview', 'Edit', 'Schedule', 'Delete']);
    expect(calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual(['GET /identity/resources/roles/v1', `GET ${ReportPaths.reportTriggers}`, `GET ${ReportPaths.tenantReports}`]);
  });

  it('previews a saved report in a sandboxed frame (its filters encoded in the query) and downloads it as PDF', async () => {
    const { view, calls } = open();
    await view.findByRole('row', { name: /^MFA review Users and MFA coverage/ });
    await chooseRowAction(view, 'Actions for MFA review', 'Preview');
    const dialog = await view.findByRole('dialog', { name: 'MFA review' });
    const frame = await within(dialog).findByTitle('Preview of MFA review');
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin');
    // The inline stylesheet is taken out (a host's CSP would refuse it) and adopted into the frame instead.
    expect(frame.getAttribute('srcdoc')).toBe('<!doctype html><html><head><title>MFA review</title></head><body><h1>MFA review</h1></body></html>');
    const preview = calls.find((c) => c.path === ReportPaths.previewReport)!;
    expect(preview.query).toMatchObject({ templateId: 'users-mfa', responseType: 'html', name: 'MFA review' });
    expect(decodeDataFilters(String(preview.query!.dataFilters))).toEqual({ mfaEnrolled: false });

    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const link = click.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(link.download).toMatch(/^mfa-review-\d{4}-\d{2}-\d{2}\.pdf$/);
    expect(link.href).toBe('blob:report');
    expect(calls.find((c) => c.path.endsWith('/download'))).toMatchObject({ path: '/reports/resources/tenant-reports/v1/rep-1/download', query: { type: 'pdf' } });
  });

  it('checks the filters with the server’s rules, shows each problem at its field, and creates the report with typed dataFilters', async () => {
    const { view, calls } = open({ reports: [], triggers: [] });
    await view.findByText('No saved report yet. Create one from a template.');
    fireEvent.click(view.getByRole('button', { name: 'Create report: Audit summary' }));
    const dialog = await view.findByRole('dialog', { name: 'New report' });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Audit summary');
    fireEvent.change(within(dialog).getByLabelText('Rows at most'), { target: { value: 'lots' } });
    fireEvent.change(within(dialog).getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(within(dialog).getByLabelText('To'), { target: { value: '2026-02-01' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create report' }));
    const alerts = await within(dialog).findAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual(['The end date must not be before the start date.', 'Enter a whole number from 1 to 500.']);
    expect(within(dialog).getByLabelText('Rows at most').getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Rows at most'), { target: { value: '25' } });
    fireEvent.change(within(dialog).getByLabelText('To'), { target: { value: '2026-03-31' } });
    fireEvent.change(within(dialog).getByLabelText('Severity'), { target: { value: 'High' } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '  March audits ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create report' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: ReportPaths.tenantReports, body: { templateId: 'audit-summary', name: 'March audits', dataFilters: { from: '2026-03-01', to: '2026-03-31', severity: 'High', limit: 25 } } });
    expect(await view.findByText('March audits created.')).toBeTruthy();
  });

  it('shows the server’s refusal of a filter at that field and keeps the dialog', async () => {
    const refusal = { message: 'limit must be a whole number from 1 to 500', statusCode: 400, errorContext: { fields: [{ field: 'dataFilters.limit', message: 'limit must be a whole number from 1 to 500' }] } };
    const { view } = open({ failures: [{ method: 'POST', path: ReportPaths.tenantReports, error: refusal }] });
    await view.findByRole('row', { name: /^MFA review Users and MFA coverage/ });
    await chooseRowAction(view, 'Actions for MFA review', 'Edit');
    const dialog = await view.findByRole('dialog', { name: 'Edit MFA review' });
    expect((within(dialog).getByLabelText('MFA') as HTMLSelectElement).value).toBe('false');
    expect(within(dialog).getByRole('checkbox', { name: 'Read only' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The server refused this value: limit must be a whole number from 1 to 500')).toBeTruthy();
    expect(view.getByRole('dialog', { name: 'Edit MFA review' })).toBeTruthy();
  });

  it('schedules a report: refuses a bad address, then saves the recipients one per line', async () => {
    const { view, calls } = open({ triggers: [] });
    await view.findByText('No report is emailed on a schedule.');
    fireEvent.click(view.getByRole('button', { name: 'Add schedule' }));
    const dialog = await view.findByRole('dialog', { name: 'Email a report on a schedule' });
    const recipients = within(dialog).getByLabelText('Recipients');
    fireEvent.change(recipients, { target: { value: 'ciso@example.com\nnot-an-address' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add schedule' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('not-an-address is not an email address.');
    expect(recipients.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(recipients, { target: { value: 'CISO@example.com, ops@example.com\nciso@example.com' } });
    fireEvent.change(within(dialog).getByLabelText('Schedule'), { target: { value: 'monthly' } });
    expect(within(dialog).getByText('On the 1st of every month at 07:00 UTC.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add schedule' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ reportId: 'rep-1', schedule: 'monthly', recipients: ['ciso@example.com', 'ops@example.com'], enabled: true });
  });

  it('offers only the templates whose data the admin may read (users read: the users report only), in the list and in the new report dialog', async () => {
    const { view } = open({ permissions: ['fe.reports.read.reports', 'fe.reports.write.reports', 'fe.secure.read.users'] });
    await view.findByRole('row', { name: /^MFA review Users and MFA coverage/ });
    expect(view.getAllByRole('heading', { level: 4 }).map((h) => h.textContent)).toEqual(['Users and MFA coverage']);
    expect(view.queryByRole('button', { name: 'Create report: Audit summary' })).toBeNull();
    fireEvent.click(view.getByRole('button', { name: 'Create report: Users and MFA coverage' }));
    const dialog = await view.findByRole('dialog', { name: 'New report' });
    const select = within(dialog).getByRole('combobox', { name: 'Template' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['users-mfa']);
  });

  it('shows why a schedule was turned off by a run', async () => {
    const { view } = open({ triggers: [{ ...TRIGGER, enabled: false, nextRunAt: null, disabledReason: 'Disabled: its creator no longer holds fe.secure.read.users.' }] });
    const schedule = await view.findByRole('row', { name: /ciso@example.com/ });
    expect(within(schedule).getAllByRole('cell')[2]!.textContent).toBe('Off (Disabled: its creator no longer holds fe.secure.read.users.)');
  });

  it('offers only preview and downloads to a reader without the write permission', async () => {
    const { view } = open({ permissions: ['fe.reports.read.reports', ...DATA] });
    await view.findByRole('row', { name: /^MFA review Users and MFA coverage/ });
    expect(view.queryByRole('button', { name: 'New report' })).toBeNull();
    expect(view.queryByRole('button', { name: 'Add schedule' })).toBeNull();
    expect(view.queryByRole('button', { name: /Create report: / })).toBeNull();
    expect(await rowMenuItems(view, 'Actions for MFA review')).toEqual(['Preview']);
    expect(view.queryByRole('button', { name: 'Actions for the schedule of MFA review' })).toBeNull();
  });

  it('says why a preview failed and tries again', async () => {
    const { view, calls } = open({ failures: [{ method: 'GET', path: ReportPaths.previewReport, error: { message: 'Report service down', statusCode: 500 } }] });
    fireEvent.click(await view.findByRole('button', { name: 'Preview Security posture' }));
    const dialog = await view.findByRole('dialog', { name: 'Security posture' });
    expect((await within(dialog).findByRole('alert')).textContent).toContain('The report could not be made.');
    expect(within(dialog).queryByRole('button', { name: 'Download PDF' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.filter((c) => c.path === ReportPaths.previewReport)).toHaveLength(2));
  });
});
