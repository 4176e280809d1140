import { useCallback, useId, useState } from 'react';
import { SECURITY_CENTER_TABLE_LIMIT, type UserFilterPreset } from '@gatehouse/shared/admin-paths';
import { shortDate } from '../../format';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { TableSkeleton } from '../users/users-table';
import type { SecurityCenterApi } from './security-center-api';
import { Pager } from '../../controls/pager';

const TITLES: Record<UserFilterPreset, string> = {
  'breached-passwords': 'securityCenter.table.breached',
  'mfa-unenrolled': 'securityCenter.table.mfaUnenrolled',
  inactive: 'securityCenter.table.inactive',
};
const EMPTY: Record<UserFilterPreset, string> = {
  'breached-passwords': 'securityCenter.table.breachedEmpty',
  'mfa-unenrolled': 'securityCenter.table.mfaUnenrolledEmpty',
  inactive: 'securityCenter.table.inactiveEmpty',
};

/** One of the security center's user tables: the users list with `preset`, 10 a page, name, email and last sign-in. */
export function UserTable({ preset, center }: { preset: UserFilterPreset; center: SecurityCenterApi }) {
  const t = useT();
  const toError = useErrorText();
  const titleId = useId();
  const [page, setPage] = useState(0);
  const fetch = useCallback(() => center.users(preset, page), [center, preset, page]);
  const { data, loading, error, reload } = useLatestLoad(fetch, toError, { keepDataOnError: true });
  const total = data?._metadata.totalItems ?? 0;
  const pages = Math.max(1, Math.ceil(total / SECURITY_CENTER_TABLE_LIMIT));
  const col = { email: t.t('securityCenter.table.email'), lastSeen: t.t('securityCenter.table.lastSeen') };
  return (
    <section className="gh-ap-sc-table" aria-labelledby={titleId}>
      <h4 id={titleId} className="gh-ap-sc-table-title">
        {t.t(TITLES[preset])}
        {data && <span className="gh-ap-badge">{total}</span>}
      </h4>
      {error && (
        <div className="gh-ap-banner gh-ap-banner-error" role="alert">
          <span>{error}</span>{' '}
          <button type="button" className="gh-ap-link" onClick={() => void reload()}>{t.t('common.tryAgain')}</button>
        </div>
      )}
      <div className="gh-ap-table-wrap">
        <table className="gh-ap-table" aria-busy={loading}>
          <caption className="gh-ap-visually-hidden">{t.t(TITLES[preset])}</caption>
          <thead>
            <tr>
              <th scope="col">{t.t('securityCenter.table.name')}</th>
              <th scope="col">{col.email}</th>
              <th scope="col">{col.lastSeen}</th>
            </tr>
          </thead>
          <tbody>
            {data?.items.map((user) => (
              <tr key={user.id}>
                <th scope="row">{user.name || user.email || t.t('common.thisUser')}</th>
                <td data-label={col.email}>{user.email ?? t.t('common.none')}</td>
                <td data-label={col.lastSeen} className="gh-ap-nowrap">{user.lastSeen ? shortDate(t, user.lastSeen) : t.t('common.never')}</td>
              </tr>
            ))}
            {(data?.items.length ?? 0) === 0 && !loading ? (
              <tr><td colSpan={3}><p className="gh-ap-table-empty">{error ? t.t('securityCenter.loadFailed') : t.t(EMPTY[preset])}</p></td></tr>
            ) : null}
          </tbody>
        </table>
        {loading && !data && <TableSkeleton rows={3} />}
      </div>
      {pages > 1 && (
        <Pager label={t.t('securityCenter.table.pages', { table: t.t(TITLES[preset]) })} page={page} pages={pages} busy={loading} onPage={setPage} />
      )}
    </section>
  );
}
