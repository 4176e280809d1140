/** The tenant's invoices (fe.subscriptions.read): the list, and each as a PDF download. */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { BillingPaths, InvoicesResponse, Permissions } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { InvoiceService } from '../../services/billing/invoices';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { err, json } from '../openapi';

const tags = ['billing: invoices'];

export function invoiceRoutes(deps: RouteDeps, invoices: InvoiceService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const read = guardFor(deps, deps.clock)(Permissions.subscriptionsRead, 'read');

  app.openapi(
    createRoute({
      method: 'get',
      path: BillingPaths.invoices,
      tags,
      summary: "The tenant's invoices, newest first (totalAmount in major units: minor / 100, 2 decimals; currency default usd)",
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(InvoicesResponse, 'The invoices'), 400: err('Invalid query'), ...adminErrors },
    }),
    async (c) => c.json(await invoices.list(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: BillingPaths.invoicePdf,
      tags,
      summary: "One of the tenant's invoices as a PDF (an attachment)",
      ...read,
      request: { params: z.object({ id: z.string().min(1).max(64) }), query: TenantQuery },
      responses: {
        200: { description: 'The PDF', content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } },
        400: err('Invalid query'),
        ...adminErrors,
      },
    }),
    async (c) => {
      const { bytes, filename } = await invoices.pdf(c.get('admin'), c.req.valid('param').id);
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' });
    },
  );

  return app;
}
