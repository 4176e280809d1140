import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { AUDITS_CSV_FILE_NAME, AuditPaths, AuditsMetadata, AuditsQuery, AuditsResponse, AuditsStats, ExportAuditsRequest, Permissions } from '@gatehouse/shared/wire';
import { stream } from 'hono/streaming';
import type { Clock } from '../../clock';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { AdminAuditService } from '../../services/admin/audits';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { adminErrors, guardFor, TenantQuery } from './shared';

const tags = ['admin: audits'];

/** The audit log (seed 001 section 7 "Audits"): list, stats, metadata and CSV export; all need fe.secure.read.audits. */
export function adminAuditRoutes(deps: RouteDeps, clock: Clock, audits: AdminAuditService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const read = guardFor(deps, clock)(Permissions.auditsRead, 'read');

  app.openapi(
    createRoute({
      method: 'get',
      path: AuditPaths.audits,
      tags,
      summary: "One page of the tenant's audit log, newest first by default, with column filters; by offset, or by cursor (nextCursor / prevCursor of an earlier answer) for deep pages",
      ...read,
      request: { query: AuditsQuery },
      responses: { 200: json(AuditsResponse, 'The page and the count of matching records'), 400: err('Invalid query'), ...adminErrors },
    }),
    async (c) => c.json(await audits.list(c.get('admin'), c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: AuditPaths.stats, tags, summary: 'Counts: total, today (UTC), High severity in the last 7 days', ...read, request: { query: TenantQuery }, responses: { 200: json(AuditsStats, 'The counts'), ...adminErrors } }),
    async (c) => c.json(await audits.stats(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: AuditPaths.metadata, tags, summary: 'The audit columns: name, displayName, type, sortable, filterable, showInTable', ...read, request: { query: TenantQuery }, responses: { 200: json(AuditsMetadata, 'The columns'), ...adminErrors } }),
    (c) => c.json(audits.metadata(), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: AuditPaths.exportCsv,
      tags,
      summary: 'The audit log as audits.csv (headerProps pick and name the columns), streamed in batches',
      ...read,
      request: { query: TenantQuery, ...body(ExportAuditsRequest) },
      responses: { 200: { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } }, 400: err('Invalid body'), ...adminErrors },
    }),
    (c) => {
      const chunks = audits.exportCsv(c.get('admin'), c.req.valid('json'));
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header('Content-Disposition', `attachment; filename="${AUDITS_CSV_FILE_NAME}"`);
      c.header('Cache-Control', 'no-store');
      return stream(c, async (out) => {
        for await (const chunk of chunks) {
          if (out.aborted) break;
          await out.write(chunk);
        }
      });
    },
  );

  return app;
}
