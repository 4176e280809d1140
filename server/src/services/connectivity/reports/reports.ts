/**
 * Tenant reports (issue 16 "Reports"; seed 001 sections 3, 7): the templates, the tenant's saved
 * reports (saving updates when an id exists, otherwise creates), preview and download as html, pdf
 * or image (jpg), and triggers that email a saved report weekly or monthly through the `report`
 * jobs of the delivery queue. Every change is audited in its own transaction, with the old and new
 * values.
 */
import {
  checkReportFilters, decodeDataFilters, REPORT_LIMITS, type ReportDownloadType, type ReportFilterValues, type ReportResponseType,
  type ReportTemplate, type ReportTemplateId, type ReportTrigger, type SaveReportTriggerRequest, type SaveTenantReportRequest, type TenantReport,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../../clock';
import { newId } from '../../../crypto';
import type { Db } from '../../../db';
import {
  countReportTriggers, countTenantReports, deleteReportTrigger, deleteTenantReport, findReportTrigger, findTenantReport, insertReportTrigger,
  insertTenantReport, listReportTriggers, listTenantReports, listTriggersOfReport, tenantName, updateReportTrigger, updateTenantReport,
  type ReportTriggerRow, type TenantReportRow,
} from '../../../db/queries/reports';
import { Errors } from '../../../errors';
import type { AdminCaller } from '../../admin/access';
import { recordAudit } from '../../admin/audit-log';
import { cancelJobsForTarget, enqueueJob } from '../jobs';
import { reportFileName, type ReportDocument } from './document';
import { renderReportHtml } from './render-html';
import { renderReportJpeg } from './render-image';
import { renderReportPdf } from './render-pdf';
import { nextRunAt } from './schedule';
import { assertMayRunTemplate, buildReport, listTemplates, type ReportSources } from './templates';

export const ReportAuditActions = {
  reportCreated: 'Report created',
  reportUpdated: 'Report updated',
  reportDeleted: 'Report deleted',
  triggerCreated: 'Report trigger created',
  triggerUpdated: 'Report trigger updated',
  triggerDeleted: 'Report trigger deleted',
} as const;

/** A rendered report: its bytes (or text), content type and a safe file name. */
export interface RenderedReport {
  body: Buffer | string;
  contentType: string;
  fileName: string;
}

export interface ReportService {
  /** The templates the caller may run (their data keys held). */
  templates(caller: AdminCaller): ReportTemplate[];
  list(caller: AdminCaller): Promise<TenantReport[]>;
  save(caller: AdminCaller, body: SaveTenantReportRequest): Promise<{ report: TenantReport; created: boolean }>;
  remove(caller: AdminCaller, id: string): Promise<void>;
  /** Renders a template with encoded filters (base64url JSON) for the caller's tenant, titled `name` (else the template's name). */
  preview(caller: AdminCaller, templateId: ReportTemplateId, encodedFilters: string | undefined, type: ReportResponseType, name?: string): Promise<RenderedReport>;
  download(caller: AdminCaller, id: string, type: ReportDownloadType): Promise<RenderedReport>;
  listTriggers(caller: AdminCaller): Promise<ReportTrigger[]>;
  saveTrigger(caller: AdminCaller, body: SaveReportTriggerRequest): Promise<{ trigger: ReportTrigger; created: boolean }>;
  removeTrigger(caller: AdminCaller, id: string): Promise<void>;
  /** The document of a saved report, now (the trigger job's first step). */
  documentOf(tenantId: string, report: TenantReportRow): Promise<ReportDocument>;
}

/** The filters of a body or query, validated, or a 400 naming each bad field. */
export function validFilters(templateId: ReportTemplateId, raw: unknown): ReportFilterValues {
  const check = checkReportFilters(templateId, raw);
  if (!check.ok) throw Errors.validation(check.errors.map((e) => e.message).join('; '), { fields: check.errors });
  return check.value;
}

/** What is kept of the filters as sent: the keys with a value (validated before). */
function storedFilters(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function toTenantReport(row: TenantReportRow): TenantReport {
  return { id: row.id, templateId: row.template_id as ReportTemplateId, name: row.name, dataFilters: parseJson(row.data_filters, {}), createdAt: Number(row.created_at), updatedAt: Number(row.updated_at) };
}

export function toReportTrigger(row: ReportTriggerRow): ReportTrigger {
  return {
    id: row.id,
    reportId: row.report_id,
    schedule: row.schedule === 'monthly' ? 'monthly' : 'weekly',
    recipients: parseJson<string[]>(row.recipients, []),
    enabled: row.enabled === 1,
    nextRunAt: row.next_run_at === null ? null : Number(row.next_run_at),
    lastRunAt: row.last_run_at === null ? null : Number(row.last_run_at),
    disabledReason: row.disabled_reason ?? null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export async function renderAs(doc: ReportDocument, type: ReportResponseType | ReportDownloadType): Promise<RenderedReport> {
  if (type === 'html') return { body: renderReportHtml(doc), contentType: 'text/html; charset=utf-8', fileName: reportFileName(doc.title, doc.generatedAt, 'html') };
  if (type === 'pdf') return { body: await renderReportPdf(doc), contentType: 'application/pdf', fileName: reportFileName(doc.title, doc.generatedAt, 'pdf') };
  return { body: await renderReportJpeg(doc), contentType: 'image/jpeg', fileName: reportFileName(doc.title, doc.generatedAt, 'jpg') };
}

export function createReportService(deps: { db: Db; clock: Clock; sources: ReportSources }): ReportService {
  const { db, clock, sources } = deps;

  async function documentOf(tenantId: string, report: TenantReportRow): Promise<ReportDocument> {
    const templateId = report.template_id as ReportTemplateId;
    const filters = validFilters(templateId, parseJson(report.data_filters, {}));
    return buildReport(sources, { tenantId, tenantName: (await tenantName(db, tenantId)) ?? '', templateId, title: report.name, filters }, clock.now());
  }

  async function reportOf(caller: AdminCaller, id: string): Promise<TenantReportRow> {
    const row = await findTenantReport(db, caller.tenantId, id);
    if (!row) throw Errors.notFound('Report not found');
    assertMayRunTemplate(caller, row.template_id as ReportTemplateId);
    return row;
  }

  return {
    templates: listTemplates,
    documentOf,

    async list(caller) {
      return (await listTenantReports(db, caller.tenantId)).map(toTenantReport);
    },

    async save(caller, body) {
      assertMayRunTemplate(caller, body.templateId);
      validFilters(body.templateId, body.dataFilters);
      const filters = JSON.stringify(storedFilters(body.dataFilters));
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        if (body.id) {
          const old = await findTenantReport(trx, caller.tenantId, body.id);
          if (!old) throw Errors.notFound('Report not found');
          assertMayRunTemplate(caller, old.template_id as ReportTemplateId);
          await updateTenantReport(trx, caller.tenantId, body.id, { template_id: body.templateId, name: body.name, data_filters: filters, updated_at: now });
          const next = { ...old, template_id: body.templateId, name: body.name, data_filters: filters, updated_at: now };
          await recordAudit(trx, caller, {
            action: ReportAuditActions.reportUpdated,
            description: `Report ${body.name} updated`,
            json: { reportId: old.id, old: { templateId: old.template_id, name: old.name, dataFilters: parseJson(old.data_filters, {}) }, new: { templateId: body.templateId, name: body.name, dataFilters: parseJson(filters, {}) } },
          }, now);
          return { report: toTenantReport(next), created: false };
        }
        if ((await countTenantReports(trx, caller.tenantId)) >= REPORT_LIMITS.reportsPerTenant) {
          throw Errors.validation(`An account keeps at most ${REPORT_LIMITS.reportsPerTenant} reports`);
        }
        const row: TenantReportRow = { id: newId(), tenant_id: caller.tenantId, template_id: body.templateId, name: body.name, data_filters: filters, created_at: now, updated_at: now };
        await insertTenantReport(trx, row);
        await recordAudit(trx, caller, {
          action: ReportAuditActions.reportCreated,
          description: `Report ${body.name} created`,
          json: { reportId: row.id, new: { templateId: body.templateId, name: body.name, dataFilters: parseJson(filters, {}) } },
        }, now);
        return { report: toTenantReport(row), created: true };
      });
    },

    async remove(caller, id) {
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        const old = await findTenantReport(trx, caller.tenantId, id);
        if (!old) throw Errors.notFound('Report not found');
        const triggers = await listTriggersOfReport(trx, caller.tenantId, id);
        for (const t of triggers) await cancelJobsForTarget(trx, 'report', t.id, now);
        await deleteTenantReport(trx, caller.tenantId, id);
        await recordAudit(trx, caller, {
          action: ReportAuditActions.reportDeleted,
          description: `Report ${old.name} deleted`,
          severity: 'High',
          json: { reportId: id, old: { templateId: old.template_id, name: old.name, dataFilters: parseJson(old.data_filters, {}) }, triggerIds: triggers.map((t) => t.id) },
        }, now);
      });
    },

    async preview(caller, templateId, encodedFilters, type, name) {
      assertMayRunTemplate(caller, templateId);
      const raw = encodedFilters === undefined || encodedFilters === '' ? {} : decodeDataFilters(encodedFilters);
      if (raw === null) throw Errors.validation('dataFilters must be base64url-encoded JSON of an object', { fields: [{ field: 'dataFilters', message: 'not base64url JSON of an object' }] });
      const filters = validFilters(templateId, raw);
      const doc = await buildReport(sources, { tenantId: caller.tenantId, tenantName: (await tenantName(db, caller.tenantId)) ?? '', templateId, title: name ?? null, filters }, clock.now());
      return renderAs(doc, type);
    },

    async download(caller, id, type) {
      return renderAs(await documentOf(caller.tenantId, await reportOf(caller, id)), type);
    },

    async listTriggers(caller) {
      return (await listReportTriggers(db, caller.tenantId)).map(toReportTrigger);
    },

    async saveTrigger(caller, body) {
      const now = clock.now();
      const recipients = [...new Set(body.recipients)];
      return db.transaction().execute(async (trx) => {
        // The report must be the caller's tenant's: another tenant's id is not found.
        const report = await findTenantReport(trx, caller.tenantId, body.reportId);
        if (!report) throw Errors.validation('reportId: no such report in this account', { fields: [{ field: 'reportId', message: 'no such report in this account' }] });
        // Each run checks its creator still may (trigger-job.ts): the creator must be able to now.
        assertMayRunTemplate(caller, report.template_id as ReportTemplateId);
        const next = body.enabled ? nextRunAt(body.schedule, now) : null;
        const values = { report_id: body.reportId, schedule: body.schedule, recipients: JSON.stringify(recipients), enabled: body.enabled ? 1 : 0, next_run_at: next, created_by: caller.userId, disabled_reason: null, updated_at: now };
        let row: ReportTriggerRow;
        let created: boolean;
        if (body.id) {
          const old = await findReportTrigger(trx, caller.tenantId, body.id);
          if (!old) throw Errors.notFound('Report trigger not found');
          await cancelJobsForTarget(trx, 'report', old.id, now);
          await updateReportTrigger(trx, caller.tenantId, old.id, values);
          row = { ...old, ...values };
          created = false;
          await recordAudit(trx, caller, {
            action: ReportAuditActions.triggerUpdated,
            description: `Report trigger of ${report.name} updated`,
            json: { triggerId: old.id, old: { reportId: old.report_id, schedule: old.schedule, recipients: parseJson(old.recipients, []), enabled: old.enabled === 1 }, new: { reportId: body.reportId, schedule: body.schedule, recipients, enabled: body.enabled } },
          }, now);
        } else {
          if ((await countReportTriggers(trx, caller.tenantId)) >= REPORT_LIMITS.triggersPerTenant) {
            throw Errors.validation(`An account keeps at most ${REPORT_LIMITS.triggersPerTenant} report triggers`);
          }
          row = { id: newId(), tenant_id: caller.tenantId, last_run_at: null, created_at: now, ...values };
          created = true;
          await insertReportTrigger(trx, row);
          await recordAudit(trx, caller, {
            action: ReportAuditActions.triggerCreated,
            description: `Report trigger of ${report.name} created`,
            json: { triggerId: row.id, new: { reportId: body.reportId, schedule: body.schedule, recipients, enabled: body.enabled } },
          }, now);
        }
        if (next !== null) await enqueueJob(trx, { kind: 'report', tenantId: caller.tenantId, targetId: row.id, payload: { runAt: next }, dueAt: next });
        return { trigger: toReportTrigger(row), created };
      });
    },

    async removeTrigger(caller, id) {
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        const old = await findReportTrigger(trx, caller.tenantId, id);
        if (!old) throw Errors.notFound('Report trigger not found');
        await cancelJobsForTarget(trx, 'report', id, now);
        await deleteReportTrigger(trx, caller.tenantId, id);
        await recordAudit(trx, caller, {
          action: ReportAuditActions.triggerDeleted,
          description: 'Report trigger deleted',
          json: { triggerId: id, old: { reportId: old.report_id, schedule: old.schedule, recipients: parseJson(old.recipients, []), enabled: old.enabled === 1 } },
        }, now);
      });
    },
  };
}
