import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  DownloadReportQuery, Permissions, PreviewReportQuery, ReportPaths, ReportTemplateList, ReportTrigger, ReportTriggerList, SaveReportTriggerRequest,
  SaveTenantReportRequest, TenantReport, TenantReportList,
} from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import { REPORT_HTML_CSP } from '../../services/connectivity/reports/render-html';
import type { RenderedReport, ReportService } from '../../services/connectivity/reports/reports';
import type { RouteDeps } from '../deps';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import { body, err, json } from '../openapi';

const tags = ['admin: reports'];
const IdParam = z.object({ id: z.string().min(1).max(64) });
const binary = z.string().openapi({ format: 'binary' });

/** The report as the answer: HTML under its strict policy, PDF and JPEG as bytes; inline for a preview, an attachment for a download. */
function reportResponse(c: Context<AppEnv>, report: RenderedReport, disposition: 'inline' | 'attachment'): Response {
  const headers: Record<string, string> = {
    'content-type': report.contentType,
    // reportFileName keeps to [a-z0-9-.], so the quoted name needs no escaping.
    'content-disposition': `${disposition}; filename="${report.fileName}"`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
  if (report.contentType.startsWith('text/html')) headers['content-security-policy'] = REPORT_HTML_CSP;
  else headers['content-security-policy'] = "default-src 'none'; frame-ancestors 'none'";
  const bytes = typeof report.body === 'string' ? report.body : (report.body as Uint8Array<ArrayBuffer>);
  return c.body(bytes, 200, headers);
}

const reportContent = (what: string) => ({
  description: what,
  content: { 'text/html': { schema: z.string() }, 'application/pdf': { schema: binary }, 'image/jpeg': { schema: binary } },
});

/**
 * Reports (issue 16; seed 001 sections 3, 7 "Reports: tenant-reports GET/POST, preview-report GET;
 * report triggers"): fe.reports.read.reports reads, previews and downloads; fe.reports.write.reports
 * saves and deletes reports and triggers (docs/reports.md).
 */
export function reportRoutes(deps: RouteDeps, reports: ReportService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);
  const read = guard(Permissions.reportsRead, 'read');
  const write = guard(Permissions.reportsWrite, 'write');

  app.openapi(
    createRoute({
      method: 'get', path: ReportPaths.templates, tags, ...read,
      summary: 'The report templates (users and MFA coverage, sign-in activity, audit summary, security posture) and the dataFilters each takes',
      request: { query: TenantQuery },
      responses: { 200: json(ReportTemplateList, 'The templates'), 400: err('Invalid query'), ...adminErrors },
    }),
    async (c) => c.json(reports.templates(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get', path: ReportPaths.tenantReports, tags, ...read,
      summary: "The tenant's saved reports, oldest first",
      request: { query: TenantQuery },
      responses: { 200: json(TenantReportList, 'The reports'), 400: err('Invalid query'), ...adminErrors },
    }),
    async (c) => c.json(await reports.list(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post', path: ReportPaths.tenantReports, tags, ...write,
      summary: 'Saves a report: updates the one with `id` when given (200), otherwise creates one (201); dataFilters are checked against the template',
      request: { query: TenantQuery, ...body(SaveTenantReportRequest) },
      responses: {
        200: json(TenantReport, 'Updated'),
        201: json(TenantReport, 'Created'),
        400: err('Invalid body: the field is named (dataFilters.<key> for a filter), or the account already keeps 100 reports'),
        ...adminErrors,
      },
    }),
    async (c) => {
      const { report, created } = await reports.save(c.get('admin'), c.req.valid('json'));
      return created ? c.json(report, 201) : c.json(report, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete', path: ReportPaths.tenantReport, tags, ...write,
      summary: 'Deletes a saved report and its triggers',
      request: { params: IdParam, query: TenantQuery },
      responses: { 204: { description: 'Deleted' }, 400: err('Invalid id'), ...adminErrors },
    }),
    async (c) => {
      await reports.remove(c.get('admin'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: ReportPaths.previewReport, tags, ...read,
      summary: 'Renders a template with dataFilters (base64url JSON) for the tenant, now, titled `name` (else the template\'s name): responseType html (default, under a strict Content-Security-Policy), pdf or image (JPEG)',
      request: { query: PreviewReportQuery.extend(TenantQuery.shape) },
      responses: { 200: reportContent('The report, inline'), 400: err('Invalid templateId, responseType or dataFilters (each bad filter named)'), ...adminErrors },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return reportResponse(c, await reports.preview(c.get('admin'), q.templateId, q.dataFilters, q.responseType, q.name), 'inline');
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: ReportPaths.tenantReportDownload, tags, ...read,
      summary: 'A saved report rendered now, as an attachment: type html, pdf (default) or jpg',
      request: { params: IdParam, query: DownloadReportQuery.extend(TenantQuery.shape) },
      responses: { 200: reportContent('The report, as an attachment'), 400: err('Invalid type or id'), ...adminErrors },
    }),
    async (c) => reportResponse(c, await reports.download(c.get('admin'), c.req.valid('param').id, c.req.valid('query').type), 'attachment'),
  );

  app.openapi(
    createRoute({
      method: 'get', path: ReportPaths.reportTriggers, tags, ...read,
      summary: "The tenant's report triggers, oldest first, each with its next run time",
      request: { query: TenantQuery },
      responses: { 200: json(ReportTriggerList, 'The triggers'), 400: err('Invalid query'), ...adminErrors },
    }),
    async (c) => c.json(await reports.listTriggers(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post', path: ReportPaths.reportTriggers, tags, ...write,
      summary: 'Saves a report trigger (weekly on Mondays or monthly on the 1st, 07:00 UTC): updates the one with `id` when given (200), otherwise creates one (201)',
      request: { query: TenantQuery, ...body(SaveReportTriggerRequest) },
      responses: {
        200: json(ReportTrigger, 'Updated'),
        201: json(ReportTrigger, 'Created'),
        400: err('Invalid body (the field is named), a reportId not of this account, or the account already keeps 100 triggers'),
        ...adminErrors,
      },
    }),
    async (c) => {
      const { trigger, created } = await reports.saveTrigger(c.get('admin'), c.req.valid('json'));
      return created ? c.json(trigger, 201) : c.json(trigger, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete', path: ReportPaths.reportTrigger, tags, ...write,
      summary: 'Deletes a report trigger; its queued run is cancelled',
      request: { params: IdParam, query: TenantQuery },
      responses: { 204: { description: 'Deleted' }, 400: err('Invalid id'), ...adminErrors },
    }),
    async (c) => {
      await reports.removeTrigger(c.get('admin'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  return app;
}
