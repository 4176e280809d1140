import { createServer, type AddressInfo } from 'node:net';
import { Permissions, ReportPaths, SubAccountPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { listOutbox, listOutboxAttachments } from '../../db/queries/outbox';
import { updateUser } from '../../db/queries/users';
import { activeMember, auditsOf, callAs, pathOf, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock, uniqueEmail } from '../../test/harness';
import { inflatedText, pdfTitle } from '../../test/pdf-text';
import { customRole, revokeFromRole } from './report-roles.fixtures';

/** Access tokens outlive the weeks the clock is moved by. */
const START_ENV = { RATE_LIMIT_SIGNUP_PER_IP: '1000/60', ACCESS_TOKEN_TTL: String(60 * 86_400) };

const at = (y: number, m: number, d: number, h = 0, min = 0, s = 0) => Date.UTC(y, m - 1, d, h, min, s);

async function mailsTo(server: GatehouseServer, to: string) {
  const rows = (await listOutbox(server.db, 1000)).filter((m) => m.to_address === to);
  const files = await listOutboxAttachments(server.db, rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, attachments: files.filter((f) => f.outbox_id === r.id) }));
}

describeDialects('report triggers', (harness) => {
  it('emails the saved report (HTML body, PDF attached) to each recipient when the clock passes the trigger, once, then schedules the next run', async () => {
    // A Friday: the weekly trigger's first run is Monday 07:00 UTC.
    const clock = movableClock(at(2026, 11, 27, 12));
    const server = await harness.start(START_ENV, { clock });
    const admin = await tenantWithAdmin(server);
    const report = await callAs(server, admin, 'POST', ReportPaths.tenantReports, { body: { templateId: 'users-mfa', name: 'Weekly MFA coverage', dataFilters: {} } });
    const recipients = [uniqueEmail('ciso'), uniqueEmail('ops')];
    const created = await callAs(server, admin, 'POST', ReportPaths.reportTriggers, { body: { reportId: report.body.id, schedule: 'weekly', recipients, enabled: true } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ reportId: report.body.id, schedule: 'weekly', recipients, enabled: true, nextRunAt: at(2026, 11, 30, 7), lastRunAt: null });
    expect((await callAs(server, admin, 'GET', ReportPaths.reportTriggers)).body).toEqual([created.body]);

    // Not yet due: nothing is sent.
    await server.connectivity.worker.runDue();
    expect(await mailsTo(server, recipients[0]!)).toEqual([]);

    clock.set(at(2026, 11, 30, 7, 0, 1));
    await server.connectivity.worker.runDue();
    for (const to of recipients) {
      const mails = await mailsTo(server, to);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.subject).toContain('Weekly MFA coverage');
      expect(mail.html_body).toContain('<h1>Weekly MFA coverage</h1>');
      expect(mail.attachments.map((a) => [a.filename, a.content_type])).toEqual([['weekly-mfa-coverage-2026-11-30.pdf', 'application/pdf']]);
      const pdf = Buffer.from(mail.attachments[0]!.bytes);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdfTitle(pdf)).toBe('Weekly MFA coverage');
      expect(inflatedText(pdf)).toContain(admin.email);
    }
    const [moved] = (await callAs(server, admin, 'GET', ReportPaths.reportTriggers)).body;
    expect(moved).toMatchObject({ nextRunAt: at(2026, 12, 7, 7), lastRunAt: at(2026, 11, 30, 7, 0, 1) });

    // Run again at once and later the same week: nothing more is sent.
    await server.connectivity.worker.runDue();
    clock.set(at(2026, 12, 6, 23));
    await server.connectivity.worker.runDue();
    expect(await mailsTo(server, recipients[0]!)).toHaveLength(1);

    // The next Monday: the second run.
    clock.set(at(2026, 12, 7, 7, 5));
    await server.connectivity.worker.runDue();
    expect(await mailsTo(server, recipients[1]!)).toHaveLength(2);
  });

  it('a disabled or deleted trigger sends nothing; an update moves its run; every change is audited with old and new values', async () => {
    const clock = movableClock(at(2026, 11, 27, 12));
    const server = await harness.start(START_ENV, { clock });
    const admin = await tenantWithAdmin(server);
    const report = await callAs(server, admin, 'POST', ReportPaths.tenantReports, { body: { templateId: 'audit-summary', name: 'Audits', dataFilters: {} } });
    const to = uniqueEmail('auditor');
    const created = await callAs(server, admin, 'POST', ReportPaths.reportTriggers, { body: { reportId: report.body.id, schedule: 'weekly', recipients: [to], enabled: true } });

    const monthly = await callAs(server, admin, 'POST', ReportPaths.reportTriggers, { body: { id: created.body.id, reportId: report.body.id, schedule: 'monthly', recipients: [to], enabled: true } });
    expect(monthly.status).toBe(200);
    expect(monthly.body).toMatchObject({ id: created.body.id, schedule: 'monthly', nextRunAt: at(2026, 12, 1, 7) });
    // The weekly run's job was cancelled with the change: Monday passes without an email.
    clock.set(at(2026, 11, 30, 8));
    await server.connectivity.worker.runDue();
    expect(await mailsTo(server, to)).toEqual([]);

    const disabled = await callAs(server, admin, 'POST', ReportPaths.reportTriggers, { body: { id: created.body.id, reportId: report.body.id, schedule: 'monthly', recipients: [to], enabled: false } });
    expect(disabled.body).toMatchObject({ enabled: false, nextRunAt: null });
    clock.set(at(2026, 12, 1, 8));
    await server.connectivity.worker.runDue();
    expect(await mailsTo(server, to)).toEqual([]);

    expect((await callAs(server, admin, 'DELETE', pathOf(ReportPaths.reportTrigger, { id: created.body.id }))).status).toBe(204);
    expect((await callAs(server, admin, 'DELETE', pathOf(ReportPaths.reportTrigger, { id: created.body.id }))).status).toBe(404);
    expect((await callAs(server, admin, 'GET', ReportPaths.reportTriggers)).body).toEqual([]);

    const audits = (await auditsOf(server, admin.tenantId)).filter((a) => a.action.startsWith('Report trigger'));
    expect(audits.map((a) => a.action).sort()).toEqual(['Report trigger created', 'Report trigger deleted', 'Report trigger updated', 'Report trigger updated']);
    const firstUpdate = audits.map((a) => JSON.parse(a.json!)).find((j) => j.old?.schedule === 'weekly');
    expect(firstUpdate).toMatchObject({ old: { schedule: 'weekly', enabled: true }, new: { schedule: 'monthly', enabled: true, recipients: [to] } });
  });

  it('a run whose emails cannot be sent is retried after 1, 5 and 30 minutes, then given up; the next run is still queued', async () => {
    const clock = movableClock(at(2026, 11, 27, 12));
    // The admin and the trigger are made through a server with the dev outbox; a second server on the
    // same database, whose SMTP server refuses connections (a closed port), runs the trigger.
    const server = await harness.start(START_ENV, { clock });
    const admin = await tenantWithAdmin(server);
    const report = await callAs(server, admin, 'POST', ReportPaths.tenantReports, { body: { templateId: 'security-posture', name: 'Posture', dataFilters: {} } });
    const trigger = await callAs(server, admin, 'POST', ReportPaths.reportTriggers, { body: { reportId: report.body.id, schedule: 'weekly', recipients: [uniqueEmail('posture')], enabled: true } });
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const failing = await harness.start({ ...START_ENV, SMTP_URL: `smtp://127.0.0.1:${closed}` }, { clock });
    const jobsOf = () => server.db.selectFrom('jobs').select(['status', 'attempt', 'next_attempt_at', 'last_error']).where('kind', '=', 'report').where('target_id', '=', trigger.body.id).orderBy('created_at').execute();

    clock.set(at(2026, 11, 30, 7, 0, 1));
    const attempts: number[] = [];
    for (const wait of [0, 60_000, 300_000, 1_800_000]) {
      clock.advance(wait);
      await failing.connectivity.worker.runDue();
      const [first] = await jobsOf();
      attempts.push(Number(first!.attempt));
      expect(first!.last_error).toMatch(/^Sending failed: /);
    }
    expect(attempts).toEqual([1, 2, 3, 4]);
    const [given, next] = await jobsOf();
    expect(given!.status).toBe('failed');
    // Given up: the trigger moved to the next Monday, and that run is queued.
    expect(next).toMatchObject({ status: 'pending', next_attempt_at: at(2026, 12, 7, 7) });
    const [moved] = (await callAs(server, admin, 'GET', ReportPaths.reportTriggers)).body;
    expect(moved.nextRunAt).toBe(at(2026, 12, 7, 7));
  });

  it("refuses another tenant's report, bad recipients and an unknown schedule, naming the field; deleting a report deletes its triggers", async () => {
    const server = await harness.start(START_ENV);
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    const theirs = await callAs(server, other, 'POST', ReportPaths.tenantReports, { body: { templateId: 'users-mfa', name: 'Theirs', dataFilters: {} } });
    const foreign = await callAs(server, admin, 'POST', ReportPaths.reportTriggers, { body: { reportId: theirs.body.id, schedule: 'weekly', recipients: ['a@example.test'], enabled: true } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errorContext.fields).toEqual([{ field: 'reportId', message: 'no such report in this account' }]);

    const mine = await callAs(server, admin, 'POST', ReportPaths.tenantReports, { body: { templateId: 'users-mfa', name: 'Mine', dataFilters: {} } });
    const post = (body: Record<string, unknown>) => callAs(server, admin, 'POST', ReportPaths.reportTriggers, { body: { reportId: mine.body.id, schedule: 'weekly', recipients: ['a@example.test'], enabled: true, ...body } });
    const badEmail = await post({ recipients: ['not-an-email'] });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.errors.join(' ')).toContain('recipients');
    expect((await post({ recipients: [] })).status).toBe(400);
    expect((await post({ schedule: 'daily' })).status).toBe(400);
    // Another tenant's trigger id is not found.
    const trigger = await post({});
    expect(trigger.status).toBe(201);
    expect((await callAs(server, other, 'DELETE', pathOf(ReportPaths.reportTrigger, { id: trigger.body.id }))).status).toBe(404);

    expect((await callAs(server, admin, 'DELETE', pathOf(ReportPaths.tenantReport, { id: mine.body.id }))).status).toBe(204);
    expect((await callAs(server, admin, 'GET', ReportPaths.reportTriggers)).body).toEqual([]);
    const jobs = await server.db.selectFrom('jobs').select(['status']).where('kind', '=', 'report').where('target_id', '=', trigger.body.id).execute();
    expect(jobs.map((j) => j.status)).toEqual(['cancelled']);
  });

  // Security review (MEDIUM): a trigger went on mailing tenant data after its creator lost access.
  it("a run whose creator lost the template's data key, or was disabled, sends nothing, disables the trigger with the reason and notifies the admins; a creator who still may is mailed as before", async () => {
    const clock = movableClock(at(2026, 11, 27, 12));
    const server = await harness.start(START_ENV, { clock });
    const admin = await tenantWithAdmin(server);
    const role = await customRole(server, admin, [Permissions.reportsRead, Permissions.reportsWrite, Permissions.usersRead]);
    const analyst = await activeMember(server, admin, { roleIds: [role] });
    const leaver = await activeMember(server, admin, { roleIds: [role] });
    const report = await callAs(server, analyst, 'POST', ReportPaths.tenantReports, { body: { templateId: 'users-mfa', name: 'Members', dataFilters: {} } });
    expect(report.status).toBe(201);
    const [toAnalyst, toLeaver, toAdmin] = [uniqueEmail('analyst-out'), uniqueEmail('leaver-out'), uniqueEmail('admin-out')];
    const trigger = async (who: typeof admin, to: string) => {
      const res = await callAs(server, who, 'POST', ReportPaths.reportTriggers, { body: { reportId: report.body.id, schedule: 'weekly', recipients: [to], enabled: true } });
      expect(res.status).toBe(201);
      expect(res.body.disabledReason).toBeNull();
      return res.body.id as string;
    };
    const analystTrigger = await trigger(analyst, toAnalyst);
    const leaverTrigger = await trigger(leaver, toLeaver);
    const adminTrigger = await trigger(admin, toAdmin);

    // Before the run: the role loses users read (the analyst's trigger), the leaver is disabled.
    await revokeFromRole(server, role, Permissions.usersRead);
    await updateUser(server.db, leaver.userId, { disabled: 1 });
    clock.set(at(2026, 11, 30, 7, 0, 1));
    await server.connectivity.worker.runDue();

    expect(await mailsTo(server, toAnalyst)).toEqual([]);
    expect(await mailsTo(server, toLeaver)).toEqual([]);
    expect(await mailsTo(server, toAdmin)).toHaveLength(1);
    const byId = new Map<string, any>((await callAs(server, admin, 'GET', ReportPaths.reportTriggers)).body.map((t: { id: string }) => [t.id, t]));
    expect(byId.get(analystTrigger)).toMatchObject({ enabled: false, nextRunAt: null, disabledReason: `Disabled: its creator no longer holds ${Permissions.usersRead}.` });
    expect(byId.get(leaverTrigger)).toMatchObject({ enabled: false, nextRunAt: null, disabledReason: 'Disabled: its creator is disabled.' });
    expect(byId.get(adminTrigger)).toMatchObject({ enabled: true, nextRunAt: at(2026, 12, 7, 7), disabledReason: null });

    const notes = await server.db.selectFrom('notifications').select(['category', 'severity', 'title', 'body']).where('tenant_id', '=', admin.tenantId).where('title', 'like', 'Scheduled report%').execute();
    expect(notes).toHaveLength(2);
    expect(notes.every((n) => n.category === 'security' && n.title === 'Scheduled report "Members" was not sent')).toBe(true);
    expect(notes.map((n) => n.body).join(' ')).toContain(Permissions.usersRead);

    // Disabled, they stay so: the next Monday sends nothing either, and makes no new notification.
    clock.set(at(2026, 12, 7, 7, 0, 1));
    await server.connectivity.worker.runDue();
    expect(await mailsTo(server, toAnalyst)).toEqual([]);
    expect(await mailsTo(server, toAdmin)).toHaveLength(2);
    expect(await server.db.selectFrom('notifications').select('id').where('tenant_id', '=', admin.tenantId).where('title', 'like', 'Scheduled report%').execute()).toHaveLength(2);

    // An admin who may read the report saves it again: enabled, the reason cleared, and it runs under them.
    const resaved = await callAs(server, admin, 'POST', ReportPaths.reportTriggers, { body: { id: analystTrigger, reportId: report.body.id, schedule: 'weekly', recipients: [toAnalyst], enabled: true } });
    expect(resaved.body).toMatchObject({ enabled: true, disabledReason: null, nextRunAt: at(2026, 12, 14, 7) });
    clock.set(at(2026, 12, 14, 7, 0, 1));
    await server.connectivity.worker.runDue();
    expect(await mailsTo(server, toAnalyst)).toHaveLength(1);

    // The analyst can no longer make a trigger for it either (403 naming the key).
    const refused = await callAs(server, analyst, 'POST', ReportPaths.reportTriggers, { body: { reportId: report.body.id, schedule: 'weekly', recipients: [toAnalyst], enabled: true } });
    expect(refused.status).toBe(403);
    expect(refused.body.errorContext.permissions).toEqual([Permissions.usersRead]);
  });

  it("an ancestor account's admin acting in a sub-account keeps their trigger there running (they reach it without being a member)", async () => {
    const clock = movableClock(at(2026, 11, 27, 12));
    const server = await harness.start(START_ENV, { clock });
    const parent = await tenantWithAdmin(server, 'parent');
    const child = await callAs(server, parent, 'POST', SubAccountPaths.subTenants, { body: { name: 'Child' } });
    expect(child.status).toBe(201);
    const tenantId = child.body.tenantId as string;
    const report = await callAs(server, parent, 'POST', ReportPaths.tenantReports, { tenantId, body: { templateId: 'audit-summary', name: 'Child audits', dataFilters: {} } });
    expect(report.status).toBe(201);
    const to = uniqueEmail('child-out');
    const trigger = await callAs(server, parent, 'POST', ReportPaths.reportTriggers, { tenantId, body: { reportId: report.body.id, schedule: 'weekly', recipients: [to], enabled: true } });
    expect(trigger.status).toBe(201);
    clock.set(at(2026, 11, 30, 7, 0, 1));
    await server.connectivity.worker.runDue();
    expect(await mailsTo(server, to)).toHaveLength(1);
    const [after] = (await callAs(server, parent, 'GET', ReportPaths.reportTriggers, { tenantId })).body;
    expect(after).toMatchObject({ enabled: true, disabledReason: null, nextRunAt: at(2026, 12, 7, 7) });
  });
});
