/** A tenant's invoices (written from Stripe): the list (seed 001 section 9: totals as minor units / 100, 2 decimals, currency default usd) and each as a PDF. */
import { DEFAULT_CURRENCY, minorToMajor, type Invoice } from '@gatehouse/shared/wire';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { findInvoice, listInvoices, type InvoiceRecord } from '../../db/queries/invoices';
import { findTenant } from '../../db/queries/tenants';
import { Errors } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { renderInvoicePdf } from './invoice-pdf';

export function invoiceToWire(row: InvoiceRecord): Invoice {
  return {
    id: row.id,
    externalId: row.external_id,
    subscriptionId: row.subscription_id,
    paymentDate: row.payment_date === null ? null : Number(row.payment_date),
    totalAmount: minorToMajor(Number(row.total_amount)),
    currency: row.currency || DEFAULT_CURRENCY,
    paid: row.paid === 1,
    receiptNumber: row.receipt_number,
  };
}

const major = (minor: number) => minorToMajor(minor).toFixed(2);

export interface InvoiceService {
  list(caller: AdminCaller): Promise<Invoice[]>;
  /** The tenant's own invoice as a PDF; another tenant's is not found. */
  pdf(caller: AdminCaller, id: string): Promise<{ bytes: Uint8Array; filename: string }>;
}

export function createInvoiceService(deps: { db: Db; config: Pick<Config, 'appName'> }): InvoiceService {
  const { db } = deps;
  return {
    async list(caller) {
      return (await listInvoices(db, caller.tenantId)).map(invoiceToWire);
    },
    async pdf(caller, id) {
      const row = await findInvoice(db, caller.tenantId, id);
      if (!row) throw Errors.notFound('Invoice not found');
      const tenant = await findTenant(db, caller.tenantId);
      let lines: { description?: unknown; amount?: unknown; quantity?: unknown }[] = [];
      try {
        const parsed = JSON.parse(row.lines) as unknown;
        if (Array.isArray(parsed)) lines = parsed;
      } catch {
        lines = [];
      }
      const number = row.receipt_number ?? row.external_id;
      const bytes = renderInvoicePdf({
        title: 'Invoice',
        vendor: deps.config.appName,
        tenant: tenant?.name ?? caller.tenantId,
        number,
        date: new Date(Number(row.payment_date ?? row.created_at)).toISOString().slice(0, 10),
        status: row.paid === 1 ? 'Paid' : row.status,
        currency: row.currency || DEFAULT_CURRENCY,
        lines: lines.map((l) => ({ description: String(l.description ?? ''), quantity: typeof l.quantity === 'number' ? l.quantity : 1, amount: major(typeof l.amount === 'number' ? l.amount : 0) })),
        total: major(Number(row.total_amount)),
      });
      return { bytes, filename: `invoice-${number.replace(/[^A-Za-z0-9_-]/g, '_')}.pdf` };
    },
  };
}
