/**
 * The `report` job (issue 16 "Report triggers: a schedule (weekly or monthly) emails the report to
 * recipients"): at a trigger's run time it renders the saved report and emails it to each recipient
 * (the HTML report as the body, the PDF attached), then moves the trigger to its next run and queues
 * that job in one transaction. A job whose trigger was changed, disabled or deleted since it was
 * queued finds the trigger's run time moved and does nothing.
 */
import type { Db } from '../../../db';
import { advanceReportTrigger, findReportTrigger, findTenantReport } from '../../../db/queries/reports';
import type { Mailer } from '../../messaging/mail';
import { enqueueJob, type ClaimedJob, type JobHandler, type JobResult } from '../jobs';
import { reportFileName, reportTime } from './document';
import { renderReportHtml } from './render-html';
import { renderReportPdf } from './render-pdf';
import type { ReportService } from './reports';
import { nextRunAt } from './schedule';

/** Retries of a failed send: 1 min, 5 min, 30 min; then the run is given up and the next one queued. */
export const REPORT_RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000] as const;

function runAtOf(job: ClaimedJob): number | null {
  const runAt = (job.payload as { runAt?: unknown } | null)?.runAt;
  return typeof runAt === 'number' ? runAt : null;
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
