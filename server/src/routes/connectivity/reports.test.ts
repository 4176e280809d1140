import { encodeDataFilters, ErrorCodes, Permissions, ReportPaths, REPORT_TEMPLATE_IDS } from '@gatehouse/shared/wire';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { updateUser } from '../../db/queries/users';
import { activeMember, auditsOf, callAs, memberWithoutPermissions, pathOf, roleIdByKey, signIn, superUser, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock } from '../../test/harness';
import { inflatedText, pdfTitle } from '../../test/pdf-text';
import { customRole } from './report-roles.fixtures';

const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)>`;

/** A call whose answer is read as bytes (PDF, JPEG) or text, with its headers. */
async function fetchRaw(server: GatehouseServer, who: { accessToken: string }, path: string) {
  const res = await server.fetch(new Request(`${server.config.publicUrl}${path}`, { headers: { authorization: `Bearer ${who.accessToken}` } }));
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const preview = (templateId: string, filters: Record<string, unknown> | string, responseType = 'html') =>
  `${ReportPaths.previewReport}?templateId=${templateId}&dataFilters=${typeof filters === 'string' ? filters : encodeDataFilters(filters)}&responseType=${responseType}`;

async function saveReport(server: GatehouseServer, admin: TenantAdmin, body: Record<string, unknown>) {
  return callAs(server, admin, 'POST', ReportPaths.tenantReports, { body });
}

describeDialects('reports', (harness) => {
  const start = (clock = movableClock()) => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_LOGIN_PER_IP: '1000/60' }, { clock });

  it('lists the four templates with the filters each takes', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const res = await callAs(server, admin, 'GET', ReportPaths.templates);
    expect(res.status).toBe(200);
    expect(res.body.map((t: { id: string }) => t.id)).toEqual([...REPORT_TEMPLATE_IDS]);
    const usersMfa = res.body.find((t: { id: string }) => t.id === 'users-mfa');
    expect(usersMfa.name).toBe('Users and MFA coverage');
    expect(usersMfa.dataFilters.map((f: { key: string; type: string }) => `${f.key}:${f.type}`)).toEqual(['from:date', 'to:date', 'roleIds:roles', 'mfaEnrolled:boolean', 'limit:number']);
  });

  it('saves a report (201), updates it by id (200), refuses bad filters naming the field without changing it, deletes it; each change audited with old and new values', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const created = await saveReport(server, admin, { templateId: 'audit-summary', name: 'Weekly audits', dataFilters: { severity: 'High', from: '2026-01-01' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ templateId: 'audit-summary', name: 'Weekly audits', dataFilters: { severity: 'High', from: '2026-01-01' } });
    const id = created.body.id as string;

    const bad = await saveReport(server, admin, { id, templateId: 'audit-summary', name: 'Renamed', dataFilters: { from: '2026-02-30', limit: '5' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errorCode).toBe(ErrorCodes.validation);
    expect(bad.body.errorContext.fields.map((f: { field: string }) => f.field)).toEqual(['dataFilters.from', 'dataFilters.limit']);
    expect(bad.body.errors[0]).toContain('from must be a valid date');
    expect((await callAs(server, admin, 'GET', ReportPaths.tenantReports)).body).toEqual([created.body]);

    const updated = await saveReport(server, admin, { id, templateId: 'audit-summary', name: 'Renamed', dataFilters: { severity: 'Info' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'Renamed', dataFilters: { severity: 'Info' } });
    expect((await callAs(server, admin, 'GET', ReportPaths.tenantReports)).body).toEqual([updated.body]);
    expect((await saveReport(server, admin, { id: 'nope', templateId: 'audit-summary', name: 'X' })).status).toBe(404);
    expect((await saveReport(server, admin, { templateId: 'nope', name: 'X' })).status).toBe(400);
    expect((await saveReport(server, admin, { templateId: 'audit-summary', name: ' ' })).status).toBe(400);

    expect((await callAs(server, admin, 'DELETE', pathOf(ReportPaths.tenantReport, { id }))).status).toBe(204);
    expect((await callAs(server, admin, 'DELETE', pathOf(ReportPaths.tenantReport, { id }))).status).toBe(404);
    expect((await callAs(server, admin, 'GET', ReportPaths.tenantReports)).body).toEqual([]);

    const audits = (await auditsOf(server, admin.tenantId)).filter((a) => a.action.startsWith('Report'));
    expect(audits.map((a) => a.action).sort()).toEqual(['Report created', 'Report deleted', 'Report updated']);
    const update = JSON.parse(audits.find((a) => a.action === 'Report updated')!.json!);
    expect(update.old).toEqual({ templateId: 'audit-summary', name: 'Weekly audits', dataFilters: { severity: 'High', from: '2026-01-01' } });
    expect(update.new).toEqual({ templateId: 'audit-summary', name: 'Renamed', dataFilters: { severity: 'Info' } });
  });

  it('previews html with every hostile name escaped, under a strict CSP; 400 naming dataFilters when it is not base64url JSON', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    await server.db.updateTable('tenants').set({ name: `Acme ${HOSTILE}` }).where('id', '=', admin.tenantId).execute();
    const member = await activeMember(server, admin);
    await updateUser(server.db, member.userId, { name: `Eve ${HOSTILE}` });

    const res = await fetchRaw(server, admin, preview('users-mfa', {}));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="users-and-mfa-coverage-\d{4}-\d{2}-\d{2}\.html"$/);
    const html = res.bytes.toString('utf8');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('Acme &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Eve &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
    // Two users (the admin and the member), neither enrolled in MFA.
    expect(html).toContain('<dt>Users</dt><dd>2</dd>');
    expect(html).toContain('<dt>MFA coverage</dt><dd>0%</dd>');

    // Titled with a saved report's name when one is given (escaped like every value).
    const named = (await fetchRaw(server, admin, `${preview('users-mfa', {})}&name=${encodeURIComponent('Board <b>pack</b>')}`)).bytes.toString('utf8');
    expect(named).toContain('<h1>Board &lt;b&gt;pack&lt;/b&gt;</h1>');
    expect(html).toContain('<h1>Users and MFA coverage</h1>');

    const garbage = await callAs(server, admin, 'GET', preview('users-mfa', '!!!'));
    expect(garbage.status).toBe(400);
    expect(garbage.body.errorContext.fields[0].field).toBe('dataFilters');
    const badBoolean = await callAs(server, admin, 'GET', preview('security-posture', { includeInsights: 'yes' }));
    expect(badBoolean.status).toBe(400);
    expect(badBoolean.body.errors).toEqual(['includeInsights must be a boolean']);
    expect((await callAs(server, admin, 'GET', preview('users-mfa', {}, 'docx'))).status).toBe(400);
  });

  it('previews as pdf and image: a PDF titled after the template, a JPEG 1200 px wide', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const pdf = await fetchRaw(server, admin, preview('security-posture', { includeInsights: true }, 'pdf'));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfTitle(pdf.bytes)).toBe('Security posture');
    const text = inflatedText(pdf.bytes);
    expect(text).toContain('Security score');
    expect(text).toContain('Insights');

    const jpg = await fetchRaw(server, admin, preview('sign-in-activity', {}, 'image'));
    expect(jpg.status).toBe(200);
    expect(jpg.headers.get('content-type')).toBe('image/jpeg');
    expect([...jpg.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const meta = await sharp(jpg.bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1200 });
  });

  it('reports sign-in activity from the audit log: successes and failures in the window', async () => {
    const clock = movableClock(Date.UTC(2026, 10, 27, 12));
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const member = await activeMember(server, admin);
    expect((await signIn(server, member.email, 'wrong-password-1')).status).toBe(401);
    expect((await signIn(server, member.email)).status).toBe(200);
    const res = await fetchRaw(server, admin, preview('sign-in-activity', { from: '2026-11-27', to: '2026-11-27' }));
    const html = res.bytes.toString('utf8');
    expect(html).toContain('<dt>Failed sign-ins</dt><dd>1</dd>');
    expect(html).toMatch(/<dt>Successful sign-ins<\/dt><dd>[1-9]\d*<\/dd>/);
    expect(html).toContain(`<td>${member.email}</td><td>Failed</td>`);
    // Another day's window holds none of them.
    const other = (await fetchRaw(server, admin, preview('sign-in-activity', { from: '2026-11-20', to: '2026-11-26' }))).bytes.toString('utf8');
    expect(other).toContain('<dt>Successful sign-ins</dt><dd>0</dd>');
    expect(other).toContain('No sign-in in this period.');
  });

  it('downloads a saved report as an attachment with a safe file name, in each type', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const saved = await saveReport(server, admin, { templateId: 'users-mfa', name: 'Q4 "MFA" review/../etc', dataFilters: { mfaEnrolled: false } });
    const url = (type: string) => `${pathOf(ReportPaths.tenantReportDownload, { id: saved.body.id })}?type=${type}`;
    const pdf = await fetchRaw(server, admin, url('pdf'));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; filename="q4-mfa-review-etc-\d{4}-\d{2}-\d{2}\.pdf"$/);
    expect(pdfTitle(pdf.bytes)).toBe('Q4 "MFA" review/../etc');
    expect(inflatedText(pdf.bytes)).toContain(admin.email);
    const html = await fetchRaw(server, admin, url('html'));
    expect(html.headers.get('content-disposition')).toMatch(/^attachment; filename="q4-mfa-review-etc-.*\.html"$/);
    expect(html.bytes.toString('utf8')).toContain('<title>Q4 &quot;MFA&quot; review/../etc</title>');
    const jpg = await fetchRaw(server, admin, url('jpg'));
    expect(jpg.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(jpg.bytes).metadata()).format).toBe('jpeg');
    expect((await callAs(server, admin, 'GET', url('png'))).status).toBe(400);
    expect((await callAs(server, admin, 'GET', `${pathOf(ReportPaths.tenantReportDownload, { id: 'missing' })}?type=pdf`)).status).toBe(404);
  });

  it('another tenant, a member without the permission and a read-only member: refused or read-only; a super user passes', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    const saved = await saveReport(server, admin, { templateId: 'audit-summary', name: 'Mine', dataFilters: {} });
    const download = `${pathOf(ReportPaths.tenantReportDownload, { id: saved.body.id })}?type=html`;
    // Another tenant's admin does not find it, cannot change it, and cannot read it by naming the tenant.
    expect((await callAs(server, other, 'GET', download)).status).toBe(404);
    expect((await saveReport(server, other, { id: saved.body.id, templateId: 'audit-summary', name: 'Stolen' })).status).toBe(404);
    expect((await callAs(server, other, 'DELETE', pathOf(ReportPaths.tenantReport, { id: saved.body.id }))).status).toBe(404);
    expect((await callAs(server, other, 'GET', ReportPaths.tenantReports, { tenantId: admin.tenantId })).status).toBe(404);
    expect((await callAs(server, admin, 'GET', ReportPaths.tenantReports)).body.map((r: { name: string }) => r.name)).toEqual(['Mine']);

    const plain = await memberWithoutPermissions(server, admin.tenantId);
    expect((await callAs(server, plain, 'GET', ReportPaths.templates, { tenantId: admin.tenantId })).status).toBe(403);
    expect((await callAs(server, plain, 'GET', preview('users-mfa', {}), { tenantId: admin.tenantId })).status).toBe(403);

    const reader = await activeMember(server, admin, { roleIds: [await roleIdByKey(server, admin, 'ReadOnly')] });
    expect((await callAs(server, reader, 'GET', ReportPaths.tenantReports)).status).toBe(200);
    expect((await callAs(server, reader, 'GET', download)).status).toBe(200);
    expect((await saveReport(server, reader, { templateId: 'audit-summary', name: 'No' })).status).toBe(403);

    const su = await superUser(server);
    expect((await callAs(server, su, 'GET', ReportPaths.tenantReports, { tenantId: admin.tenantId })).body.map((r: { name: string }) => r.name)).toEqual(['Mine']);
  });

  // Security review (MEDIUM): fe.reports.read.reports alone read sign-in IPs, audit descriptions and the member list with emails.
  it('a template needs the keys of its data as well as the reports key: templates lists only those the caller may run; preview, download and save answer 403 naming the missing key; a super user passes', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const audits = await saveReport(server, admin, { templateId: 'audit-summary', name: 'Audits', dataFilters: {} });
    const users = await saveReport(server, admin, { templateId: 'users-mfa', name: 'Users', dataFilters: {} });
    const download = (id: string) => `${pathOf(ReportPaths.tenantReportDownload, { id })}?type=html`;

    // Reports keys and users read only: the users report, nothing drawn from audits or the security center.
    const role = await customRole(server, admin, [Permissions.reportsRead, Permissions.reportsWrite, Permissions.usersRead]);
    const reporter = await activeMember(server, admin, { roleIds: [role] });
    const templates = await callAs(server, reporter, 'GET', ReportPaths.templates);
    expect(templates.status).toBe(200);
    expect(templates.body.map((t: { id: string }) => t.id)).toEqual(['users-mfa']);

    const refusals = [
      await callAs(server, reporter, 'GET', preview('sign-in-activity', {})),
      await callAs(server, reporter, 'GET', preview('audit-summary', {}, 'pdf')),
      await callAs(server, reporter, 'GET', download(audits.body.id)),
      await saveReport(server, reporter, { templateId: 'audit-summary', name: 'Mine', dataFilters: {} }),
      // Nor may they turn someone's audit report into another template.
      await saveReport(server, reporter, { id: audits.body.id, templateId: 'users-mfa', name: 'Taken', dataFilters: {} }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(403);
      expect(res.body.errorCode).toBe(ErrorCodes.forbidden);
      expect(res.body.errorContext.permissions).toEqual([Permissions.auditsRead]);
      expect(res.body.errors[0]).toContain(Permissions.auditsRead);
    }
    const posture = await callAs(server, reporter, 'GET', preview('security-posture', {}));
    expect(posture.status).toBe(403);
    expect(posture.body.errorContext.permissions).toEqual([Permissions.securityPolicyRead]);
    // Nothing was saved or changed by the refused saves.
    expect((await callAs(server, admin, 'GET', ReportPaths.tenantReports)).body.map((r: { name: string }) => r.name).sort()).toEqual(['Audits', 'Users']);

    // What they may read, they may run.
    expect((await fetchRaw(server, reporter, preview('users-mfa', {}))).status).toBe(200);
    expect((await fetchRaw(server, reporter, download(users.body.id))).status).toBe(200);
    expect((await saveReport(server, reporter, { templateId: 'users-mfa', name: 'Mine', dataFilters: {} })).status).toBe(201);

    // The reports key and audits read, without users read: the member list is refused.
    const auditor = await activeMember(server, admin, { roleIds: [await customRole(server, admin, [Permissions.reportsRead, Permissions.auditsRead])] });
    expect((await callAs(server, auditor, 'GET', ReportPaths.templates)).body.map((t: { id: string }) => t.id)).toEqual(['sign-in-activity', 'audit-summary']);
    expect((await fetchRaw(server, auditor, download(audits.body.id))).status).toBe(200);
    const members = await callAs(server, auditor, 'GET', download(users.body.id));
    expect(members.status).toBe(403);
    expect(members.body.errorContext.permissions).toEqual([Permissions.usersRead]);

    const su = await superUser(server);
    expect((await callAs(server, su, 'GET', ReportPaths.templates, { tenantId: admin.tenantId })).body).toHaveLength(REPORT_TEMPLATE_IDS.length);
    expect((await fetchRaw(server, su, `${preview('sign-in-activity', {})}&tenantId=${admin.tenantId}`)).status).toBe(200);
  });
});
