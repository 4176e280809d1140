/**
 * The `report` job (issue 16 "Report triggers: a schedule (weekly or monthly) emails the report to
 * recipients"): at a trigger's run time it renders the saved report and emails it to each recipient
 * (the HTML report as the body, the PDF attached), then moves the trigger to its next run and queues
 * that job in one transaction. A job whose trigger was changed, disabled or deleted since it was
 * queued finds the trigger's run time moved and does nothing.
 *
 * Each run first checks the trigger's creator (the admin who last saved it) is still an active member
 * of the account (or reaches it as a sub-account, as the admin guard allows) holding the reports write key and the template's data keys (a super user passes);
 * otherwise nothing is sent, the trigger is disabled with the reason and the account's admins are
 * notified, so a schedule never goes on mailing data its creator may no longer read.
 */
import { Permissions, type ReportTemplateId } from '@gatehouse/shared/wire';
import type { Db } from '../../../db';
import { advanceReportTrigger, findReportTrigger, findTenantReport, updateReportTrigger, type ReportTriggerRow, type TenantReportRow } from '../../../db/queries/reports';
import { isMember } from '../../../db/queries/tenants';
import { findUserById } from '../../../db/queries/users';
import { grantsOf } from '../../admin/permissions';
import { hierarchyReach } from '../../admin/sub-account-access';
import type { Mailer } from '../../messaging/mail';
import { enqueueJob, type ClaimedJob, type JobHandler, type JobResult } from '../jobs';
import { reportFileName, reportTime } from './document';
import { renderReportHtml } from './render-html';
import { renderReportPdf } from './render-pdf';
import type { ReportService } from './reports';
import { notifyTenantAdmins } from '../notifications';
import { nextRunAt } from './schedule';
import { missingTemplateKeys } from './templates';

/** Retries of a failed send: 1 min, 5 min, 30 min; then the run is given up and the next one queued. */
export const REPORT_RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000] as const;

function runAtOf(job: ClaimedJob): number | null {
  const runAt = (job.payload as { runAt?: unknown } | null)?.runAt;
  return typeof runAt === 'number' ? runAt : null;
}

/** Why the trigger's creator may no longer send this report, or null when they still may. */
export async function creatorRefusal(db: Db, trigger: ReportTriggerRow, report: TenantReportRow, now: number): Promise<string | null> {
  const user = await findUserById(db, trigger.created_by);
  if (!user) return 'its creator no longer exists';
  if (user.disabled === 1) return 'its creator is disabled';
  const superUser = user.super_user === 1;
  let keys: string[] = [];
  if (await isMember(db, user.id, trigger.tenant_id, now)) keys = (await grantsOf(db, user.id, trigger.tenant_id)).keys;
  else if (!superUser) {
    // An admin of an ancestor account acting in this sub-account, with their keys there (as the admin guard allows).
    const reach = await hierarchyReach(db, user.id, trigger.tenant_id, now);
    if (!reach) return 'its creator is no longer an active member of the account';
    keys = reach.keys;
  }
  const missing = missingTemplateKeys({ superUser, keys }, report.template_id as ReportTemplateId, [Permissions.reportsWrite]);
  return missing.length ? `its creator no longer holds ${missing.join(', ')}` : null;
}

export function createReportJobHandler(deps: { db: Db; mail: Mailer; reports: Pick<ReportService, 'documentOf'> }): JobHandler {
  const { db, mail, reports } = deps;

  /** Moves the trigger past `runAt` and queues its next run, once (false when another run already did). */
  async function scheduleNext(job: ClaimedJob, runAt: number, now: number): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const trigger = await findReportTrigger(trx, job.tenantId, job.targetId);
      if (!trigger) return;
      const next = nextRunAt(trigger.schedule === 'monthly' ? 'monthly' : 'weekly', now);
      if (await advanceReportTrigger(trx, trigger.id, runAt, next, now)) {
        await enqueueJob(trx, { kind: 'report', tenantId: job.tenantId, targetId: trigger.id, payload: { runAt: next }, dueAt: next });
      }
    });
  }

  /** Turns the trigger off with `reason` (if still at this run) and tells the account's admins, in one transaction. */
  async function disable(job: ClaimedJob, trigger: ReportTriggerRow, report: TenantReportRow, reason: string, now: number): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const current = await findReportTrigger(trx, job.tenantId, trigger.id);
      if (!current || current.enabled !== 1 || current.next_run_at !== trigger.next_run_at) return;
      await updateReportTrigger(trx, job.tenantId, trigger.id, { enabled: 0, next_run_at: null, disabled_reason: reason, updated_at: now });
      await notifyTenantAdmins(trx, {
        tenantId: job.tenantId,
        category: 'security',
        severity: 'warning',
        title: `Scheduled report "${report.name}" was not sent`,
        body: `The ${trigger.schedule} email of "${report.name}" is turned off. ${reason} Save the schedule again as an admin who may read this report to turn it back on.`.slice(0, 1000),
        link: null,
      }, now);
    });
  }

  return {
    kind: 'report',
    retryDelaysMs: REPORT_RETRY_DELAYS_MS,

    async run(job, now): Promise<JobResult> {
      const runAt = runAtOf(job);
      const trigger = await findReportTrigger(db, job.tenantId, job.targetId);
      // Changed, disabled or deleted since queued: its current run has its own job (or none).
      if (runAt === null || !trigger || trigger.enabled !== 1 || Number(trigger.next_run_at) !== runAt) return { ok: true };
      const report = await findTenantReport(db, job.tenantId, trigger.report_id);
      if (!report) return { ok: true };
      const refusal = await creatorRefusal(db, trigger, report, now);
      if (refusal !== null) {
        await disable(job, trigger, report, `Disabled: ${refusal}.`, now);
        return { ok: true };
      }
      let doc;
      try {
        doc = await reports.documentOf(job.tenantId, report);
      } catch (error) {
        // Filters that no longer validate will not validate on a retry either.
        return { ok: false, error: `The report could not be built: ${error instanceof Error ? error.message : 'unknown error'}`, retry: false };
      }
      const html = renderReportHtml(doc);
      const pdf = await renderReportPdf(doc);
      const recipients = JSON.parse(trigger.recipients) as string[];
      const subject = `${doc.title}: ${doc.tenantName} report of ${reportTime(doc.generatedAt)}`.slice(0, 200);
      const text = `${doc.title} (${doc.templateName}) for ${doc.tenantName}, made ${reportTime(doc.generatedAt)}.\n\nThe report is attached as a PDF.\n`;
      try {
        for (const to of recipients) {
          await mail.send({ to, subject, text, html, fromName: doc.tenantName, attachments: [{ filename: reportFileName(doc.title, doc.generatedAt, 'pdf'), contentType: 'application/pdf', content: pdf }] });
        }
      } catch (error) {
        return { ok: false, error: `Sending failed: ${(error instanceof Error ? error.message : 'unknown error').slice(0, 300)}` };
      }
      await scheduleNext(job, runAt, now);
      return { ok: true };
    },

    async onGiveUp(job, _error, now) {
      // A run that could not be sent does not stop the schedule.
      const runAt = runAtOf(job);
      if (runAt !== null) await scheduleNext(job, runAt, now);
    },
  };
}
