import { useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { ApiToken, CreatedApiToken, Role } from '@gatehouse/shared/wire';
import { holdsPermission } from '../../access';
import { Permissions } from '../../contract';
import { adoptCss } from '../../host-styles';
import { fieldVisibility, type FieldVisibility } from '../../options';
import type { SectionProps } from '../section-props';
import { useInertWhile } from '../dialogs/use-inert';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { DeleteDialog } from '../roles/delete-dialog';
import { shortDate } from '../../format';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import { TableSkeleton } from '../users/users-table';
import css from '../users/users.css?inline';
import ownCss from './api-tokens.css?inline';
import { AddTokenDialog, type AddTokenField } from './add-token-dialog';
import { createApiTokensApi, type ApiTokenKind } from './api-tokens-api';
import { TokenCreatedDialog } from './token-created-dialog';

type Dialog = { kind: 'add' } | { kind: 'created'; token: CreatedApiToken } | { kind: 'delete'; token: ApiToken } | null;

/** Actions and columns the host can hide (`adminPortal.fieldVisibility.apiTokens.delete = 'hidden'`). */
type TokenField = 'create' | 'delete' | 'clientId' | 'type' | 'createdAt' | 'expires' | 'roles' | AddTokenField;

const TYPE_LABELS: Record<ApiToken['type'], string> = { ClientCredentials: 'apiTokens.type.clientCredentials', AccessToken: 'apiTokens.type.accessToken' };

const COPY: Record<ApiTokenKind, { intro: string; caption: string; deleteText: string; empty: string }> = {
  user: { intro: 'apiTokens.user.intro', caption: 'apiTokens.user.caption', deleteText: 'apiTokens.user.deleteText', empty: 'apiTokens.user.empty' },
  tenant: { intro: 'apiTokens.tenant.intro', caption: 'apiTokens.tenant.caption', deleteText: 'apiTokens.tenant.deleteText', empty: 'apiTokens.tenant.empty' },
};

/**
 * Personal and account API tokens (seed 001 sections 2, 3, 4, 6, 7), one screen for both kinds:
 * the tokens with description, client ID, type, created and expiry dates (and roles, for account
 * tokens); holders of the write permission add tokens (the secret is shown once, in a success
 * dialog) and delete them.
 */
export function TokensSection({ kind, title, headingId, user, api, options }: SectionProps & { kind: ApiTokenKind }) {
  const t = useT();
  const toError = useErrorText();
  const tokens = useMemo(() => createApiTokensApi(api, kind), [api, kind]);
  const sectionId = kind === 'user' ? 'personalApiTokens' : 'apiTokens';
  const visibility = (field: TokenField): FieldVisibility => fieldVisibility(options, sectionId, field);
  const canWrite = Boolean(user.superUser) || holdsPermission(user, kind === 'user' ? Permissions.userApiTokensWrite : Permissions.tenantApiTokensWrite);
  const canCreate = canWrite && visibility('create') !== 'hidden';
  const canDelete = canWrite && visibility('delete') !== 'hidden';
  // Tenant tokens need the account's roles (names in the table, choices in the dialog): from the
  // roles list, else from the team dialogs' list; neither when the caller may read neither.
  const rolesSource = kind !== 'tenant' ? null : user.superUser || holdsPermission(user, Permissions.rolesRead) ? 'roles' : holdsPermission(user, Permissions.usersRead) ? 'team' : null;
  const columns = {
    clientId: visibility('clientId') !== 'hidden',
    type: visibility('type') !== 'hidden',
    createdAt: visibility('createdAt') !== 'hidden',
    expires: visibility('expires') !== 'hidden',
    roles: kind === 'tenant' && visibility('roles') !== 'hidden',
  };

  /** Tenant tokens: the account's roles, 'loading', or null when they cannot be read. */
  const [roles, setRoles] = useState<Role[] | 'loading' | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const behindRef = useRef<HTMLDivElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, `${css}\n${ownCss}`) : undefined), []);
  useInertWhile(behindRef, dialog !== null);
  useEffect(() => {
    // Once the page behind is no longer inert, focus goes back to what opened the dialog (the Delete
    // button of a deleted row is gone: then the Add button, else the heading).
    if (dialog === null && returnFocus.current) {
      const target = returnFocus.current;
      returnFocus.current = null;
      (target.isConnected ? target : addRef.current ?? headingRef.current)?.focus();
    }
  }, [dialog]);

  const { data: list, reload: load, loading, error } = useLatestLoad(tokens.list, toError);

  useEffect(() => {
    if (!rolesSource) return;
    let live = true;
    setRoles('loading');
    // Not fatal: without the roles the table shows role ids and the dialog offers none.
    tokens.roles(rolesSource).then(
      (found) => live && setRoles(found),
      () => live && setRoles(null),
    );
    return () => {
      live = false;
    };
  }, [tokens, rolesSource]);

  const open = (next: Dialog) => (event: MouseEvent<HTMLElement>) => {
    returnFocus.current = event.currentTarget;
    setNotice(null);
    setDialog(next);
  };

  const col = { clientId: t.t('apiTokens.column.clientId'), type: t.t('apiTokens.column.type'), created: t.t('apiTokens.column.created'), expires: t.t('apiTokens.column.expires'), roles: t.t('apiTokens.column.roles') };
  const roleNames = new Map((Array.isArray(roles) ? roles : []).map((r) => [r.id, r.name]));
  const columnCount = 1 + Object.values(columns).filter(Boolean).length + (canDelete ? 1 : 0);

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div ref={behindRef} className="gh-ap-users">
        <div className="gh-ap-users-head">
          <h2 ref={headingRef} id={headingId} className="gh-ap-section-title" tabIndex={-1}>{title}</h2>
          {canCreate && (
            <button ref={addRef} type="button" className="gh-ap-button gh-ap-token-add" disabled={visibility('create') === 'viewOnly'} onClick={open({ kind: 'add' })}>{t.t('apiTokens.add')}</button>
          )}
        </div>
        <p className="gh-ap-modal-text">{t.t(COPY[kind].intro)}</p>
        <Toast message={notice} />
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-table-wrap">
          <table className="gh-ap-table" aria-busy={loading}>
            <caption className="gh-ap-visually-hidden">{t.t(COPY[kind].caption)}</caption>
            <thead>
              <tr>
                <th scope="col">{t.t('apiTokens.column.description')}</th>
                {columns.clientId && <th scope="col">{col.clientId}</th>}
                {columns.type && <th scope="col">{col.type}</th>}
                {columns.createdAt && <th scope="col">{col.created}</th>}
                {columns.expires && <th scope="col">{col.expires}</th>}
                {columns.roles && <th scope="col">{col.roles}</th>}
                {canDelete && <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>}
              </tr>
            </thead>
            <tbody>
              {list?.map((token) => (
                <tr key={`${token.type}-${token.id}`}>
                  <th scope="row" className="gh-ap-token-description">{token.description}</th>
                  {columns.clientId && <td data-label={col.clientId} className="gh-ap-token-client"><code className="gh-ap-mono">{token.clientId}</code></td>}
                  {columns.type && <td data-label={col.type}>{t.t(TYPE_LABELS[token.type])}</td>}
                  {columns.createdAt && <td data-label={col.created} className="gh-ap-nowrap">{shortDate(t, token.createdAt)}</td>}
                  {columns.expires && (
                    <td data-label={col.expires} className="gh-ap-nowrap">
                      {shortDate(t, token.expires)}
                      {token.expiresInMinutes === 0 && <> <span className="gh-ap-badge">{t.t('apiTokens.expired')}</span></>}
                    </td>
                  )}
                  {columns.roles && <td data-label={col.roles}>{token.roleIds.map((id) => roleNames.get(id) ?? id).join(', ') || t.t('apiTokens.none')}</td>}
                  {canDelete && (
                    <td className="gh-ap-cell-actions">
                      <button type="button" className="gh-ap-link gh-ap-link-danger" aria-label={t.t('apiTokens.deleteToken', { name: token.description })} disabled={visibility('delete') === 'viewOnly'} onClick={open({ kind: 'delete', token })}>{t.t('common.delete')}</button>
                    </td>
                  )}
                </tr>
              ))}
              {(list?.length ?? 0) === 0 && !loading ? (
                <tr>
                  <td colSpan={columnCount}>
                    <p className="gh-ap-table-empty">{error ? t.t('apiTokens.loadFailed') : t.t(COPY[kind].empty)}</p>
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
          {loading && !list && <TableSkeleton rows={3} />}
        </div>
      </div>

      {dialog?.kind === 'add' && (
        <AddTokenDialog
          kind={kind}
          roles={roles}
          visibility={visibility}
          onClose={() => setDialog(null)}
          save={async (input) => {
            const created = await tokens.create(input);
            // Seed 001 section 4: the add dialog closes and the success dialog shows the secret.
            setDialog({ kind: 'created', token: created });
            void load();
          }}
        />
      )}
      {dialog?.kind === 'created' && (
        <TokenCreatedDialog
          token={dialog.token}
          onClose={() => {
            // The secret leaves the page with the dialog: no state keeps it.
            setDialog(null);
            setNotice(t.t('apiTokens.done.added', { name: dialog.token.description }));
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title={t.t('apiTokens.deleteToken', { name: dialog.token.description })}
          text={t.t(COPY[kind].deleteText)}
          onClose={() => setDialog(null)}
          run={async () => {
            await tokens.remove(dialog.token);
            await load();
            setDialog(null);
            setNotice(t.t('apiTokens.done.deleted', { name: dialog.token.description }));
          }}
        />
      )}
    </section>
  );
}
