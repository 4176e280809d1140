import { useState } from 'react';
import type { Invoice } from '@gatehouse/shared/wire';
import { shortDate } from '../../format';
import { useT } from '../../i18n/i18n-context';
import { TableSkeleton } from '../users/users-table';
import { invoiceAmount } from './rules';

/**
 * The tenant's invoices (seed 001 section 3 "Invoice"): date, number, amount (totalAmount in its
 * currency, 2 decimals) and paid or unpaid, each with Download (its PDF). The downloading row's
 * button is busy until the file is handed to the browser.
 */
export function InvoicesTable({ invoices, loading, error, download }: {
  invoices: Invoice[] | null;
  loading: boolean;
  error: string | null;
  download: (invoice: Invoice) => Promise<void>;
}) {
  const t = useT();
  const [downloading, setDownloading] = useState<string | null>(null);
  const col = { date: t.t('subscription.invoices.date'), number: t.t('subscription.invoices.number'), amount: t.t('subscription.invoices.amount'), status: t.t('subscription.invoices.status') };
  const run = async (invoice: Invoice) => {
    setDownloading(invoice.id);
    try {
      await download(invoice);
    } finally {
      setDownloading(null);
    }
  };
  return (
    <div className="gh-ap-table-wrap">
      <table className="gh-ap-table" aria-busy={loading}>
        <caption className="gh-ap-visually-hidden">{t.t('subscription.invoices.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{col.number}</th>
            <th scope="col">{col.date}</th>
            <th scope="col">{col.amount}</th>
            <th scope="col">{col.status}</th>
            <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>
          </tr>
        </thead>
        <tbody>
          {invoices?.map((invoice) => {
            const number = invoice.receiptNumber || invoice.externalId || invoice.id;
            return (
              <tr key={invoice.id}>
                <th scope="row" className="gh-ap-mono">{number}</th>
                <td data-label={col.date} className="gh-ap-nowrap">{invoice.paymentDate === null ? t.t('common.none') : shortDate(t, new Date(invoice.paymentDate).toISOString())}</td>
                <td data-label={col.amount} className="gh-ap-nowrap gh-ap-sub-amount">{invoiceAmount(t, invoice.totalAmount, invoice.currency)}</td>
                <td data-label={col.status}>
                  <span className={`gh-ap-badge gh-ap-sub-status gh-ap-sub-status-${invoice.paid ? 'good' : 'warn'}`}>{t.t(invoice.paid ? 'subscription.invoices.paid' : 'subscription.invoices.unpaid')}</span>
                </td>
                <td className="gh-ap-cell-actions">
                  <button type="button" className="gh-ap-link" aria-label={t.t('subscription.invoices.downloadNamed', { number })} disabled={downloading === invoice.id} aria-busy={downloading === invoice.id} onClick={() => void run(invoice)}>
                    {t.t('subscription.invoices.download')}
                  </button>
                </td>
              </tr>
            );
          })}
          {(invoices?.length ?? 0) === 0 && !loading ? (
            <tr>
              <td colSpan={5}>
                <p className="gh-ap-table-empty">{error ?? t.t('subscription.invoices.empty')}</p>
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {loading && !invoices && <TableSkeleton rows={2} />}
    </div>
  );
}
