import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Account, AccountUser, AccountUsersResponse, RoleSummary, SelectedAccount } from '@gatehouse/shared/wire';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import { adoptCss } from '../host-styles';
import { fieldVisibility } from '../options';
import { createAccountsApi } from './all-accounts/accounts-api';
import { AccountDialog, accessLabel, AddUsersDialog, HierarchySettingsDialog, UserRolesDialog } from './all-accounts/dialogs';
import ownCss from './all-accounts/all-accounts.css?inline';
import { RowMenu } from './dialogs/row-menu';
import { useInertWhile } from './dialogs/use-inert';
import { DeleteDialog } from './roles/delete-dialog';
import type { SectionProps } from './section-props';
import { useErrorText } from '../i18n/errors';
import { useT } from '../i18n/i18n-context';
import css from './users/users.css?inline';
import { TableSkeleton } from './users/users-table';

interface Children {
  items: Account[];
  loadMoreLink: string | null;
}

type Dialog =
  | { kind: 'create' }
  | { kind: 'update' }
  | { kind: 'delete' }
  | { kind: 'management' }
  | { kind: 'settings' }
  | { kind: 'addUsers'; roles: RoleSummary[] }
  | { kind: 'removeUser'; user: AccountUser }
  | { kind: 'roles'; user: AccountUser; roles: RoleSummary[] }
  | null;


/**
 * All accounts (seed 001 sections 2, 3, 7; docs/users-and-admin.md "All accounts"): the caller's
 * account and its sub-accounts as a tree (children 50 at a time, "Load more"), a name search, and the selected
 * account with its parents, counts and users (10 at a time) with their roles and sub-account access.
 * Holders of fe.account-hierarchy.write.subAccount create, update and delete sub-accounts, turn their
 * sub-account management on or off, set hierarchy settings, and add, remove and re-role their users.
 */
export default function AllAccountsSection({ title, headingId, user, api, options }: SectionProps) {
  const accounts = useMemo(() => createAccountsApi(api), [api]);
  const errorMessage = useErrorText();
  const t = useT();
  const usersLabel = (count: number) => t.t('allAccounts.users', { count });
  const userName = (u: AccountUser) => u.name || u.email || t.t('common.thisUser');
  const vis = (field: string) => fieldVisibility(options, 'allAccounts', field);
  const canWrite = Boolean(user.superUser) || holdsPermission(user, Permissions.subAccountsWrite);
  const may = (action: string) => canWrite && vis(action) === 'editable';
  const usersHidden = vis('users') === 'hidden';

  const [root, setRoot] = useState<Account | null>(null);
  const [children, setChildren] = useState<Record<string, Children>>({});
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [selected, setSelected] = useState<SelectedAccount | null>(null);
  const [users, setUsers] = useState<AccountUsersResponse | null>(null);
  const [usersOffset, setUsersOffset] = useState(0);
  const [search, setSearch] = useState('');
  const [results, setResults] = useState<Account[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const behindRef = useRef<HTMLDivElement>(null);

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, `${css}\n${ownCss}`) : undefined), []);
  useInertWhile(behindRef, dialog !== null);

  const loadChildren = useCallback(
    async (tenantId: string) => {
      const node = await accounts.tree(tenantId);
      setChildren((all) => ({ ...all, [tenantId]: { items: node.children, loadMoreLink: node.loadMoreLink } }));
      return node;
    },
    [accounts],
  );

  const loadTree = useCallback(async () => {
    setLoading(true);
    setError(null);
    try {
      const node = await accounts.tree();
      setRoot(node);
      setChildren((all) => ({ ...all, [node.tenantId]: { items: node.children, loadMoreLink: node.loadMoreLink } }));
      setExpanded((open) => new Set([...open, node.tenantId]));
      setSelectedId((id) => id ?? node.tenantId);
    } catch (thrown) {
      setError(errorMessage(thrown));
    } finally {
      setLoading(false);
    }
  }, [accounts, errorMessage]);

  useEffect(() => {
    void loadTree();
  }, [loadTree]);

  const latest = useRef(0);
  const loadSelected = useCallback(
    async (tenantId: string, offset: number) => {
      const ticket = ++latest.current;
      try {
        const detail = await accounts.get(tenantId);
        if (ticket !== latest.current) return;
        setSelected(detail);
        const page = usersHidden ? null : await accounts.users(tenantId, offset).catch((thrown) => {
          if (ticket === latest.current) setError(errorMessage(thrown));
          return null;
        });
        if (ticket === latest.current) setUsers(page);
      } catch (thrown) {
        if (ticket === latest.current) {
          setError(errorMessage(thrown));
          setSelected(null);
          setUsers(null);
        }
      }
    },
    [accounts, usersHidden, errorMessage],
  );

  useEffect(() => {
    if (selectedId) void loadSelected(selectedId, usersOffset);
  }, [selectedId, usersOffset, loadSelected]);

  useEffect(() => {
    const filter = search.trim();
    if (!filter) {
      setResults(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      accounts.search(filter).then((r) => live && setResults(r.items), (thrown) => live && setError(errorMessage(thrown)));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search, accounts, errorMessage]);

  async function toggle(account: Account) {
    const open = new Set(expanded);
    if (open.has(account.tenantId)) open.delete(account.tenantId);
    else {
      open.add(account.tenantId);
      if (!children[account.tenantId]) {
        try {
          await loadChildren(account.tenantId);
        } catch (thrown) {
          setError(errorMessage(thrown));
          return;
        }
      }
    }
    setExpanded(open);
  }

  async function loadMore(parentId: string) {
    const link = children[parentId]?.loadMoreLink;
    if (!link) return;
    try {
      const node = await accounts.more(link);
      setChildren((all) => ({ ...all, [parentId]: { items: [...(all[parentId]?.items ?? []), ...node.children], loadMoreLink: node.loadMoreLink } }));
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  }

  function select(tenantId: string) {
    setNotice(null);
    setError(null);
    setUsersOffset(0);
    setSelectedId(tenantId);
  }

  /** After a change: the tree (and open branches) and the selected account again, then the notice. */
  async function finish(message: string, nextSelected?: string) {
    setDialog(null);
    await loadTree();
    for (const id of expanded) if (id !== root?.tenantId) await loadChildren(id).catch(() => undefined);
    if (nextSelected && nextSelected !== selectedId) select(nextSelected);
    else if (selectedId) await loadSelected(selectedId, usersOffset);
    setNotice(message);
  }

  async function withRoles(next: (roles: RoleSummary[]) => Dialog) {
    if (!selected) return;
    try {
      setDialog(next((await accounts.roles(selected.tenantId)).items));
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  }

  const isOwn = selected !== null && selected.tenantId === root?.tenantId;

  function renderNode(account: Account, depth: number) {
    const open = expanded.has(account.tenantId);
    const kids = children[account.tenantId];
    return (
      <li key={account.tenantId} className="gh-ap-acct-node">
        <div className="gh-ap-acct-row" style={{ paddingInlineStart: `${depth * 20}px` }}>
          {account.numberOfSubAccounts > 0 ? (
            <button type="button" className="gh-ap-acct-toggle" aria-expanded={open} aria-label={t.t(open ? 'allAccounts.collapse' : 'allAccounts.expand', { name: account.name })} onClick={() => void toggle(account)}>
              {open ? '▾' : '▸'}
            </button>
          ) : (
            <span className="gh-ap-acct-toggle" aria-hidden="true" />
          )}
          <button type="button" className="gh-ap-acct-name" aria-current={selectedId === account.tenantId ? 'true' : undefined} onClick={() => select(account.tenantId)}>
            {account.name}
          </button>
          <span className="gh-ap-hint gh-ap-nowrap">{usersLabel(account.numberOfUsers)}</span>
          {account.isReseller && <span className="gh-ap-badge">{t.t('allAccounts.reseller')}</span>}
        </div>
        {open && kids && (kids.items.length > 0 || kids.loadMoreLink) && (
          <ul className="gh-ap-acct-list" aria-label={t.t('allAccounts.subAccountsOf', { name: account.name })}>
            {kids.items.map((child) => renderNode(child, depth + 1))}
            {kids.loadMoreLink && (
              <li style={{ paddingInlineStart: `${(depth + 1) * 20 + 28}px` }}>
                <button type="button" className="gh-ap-link" onClick={() => void loadMore(account.tenantId)}>{t.t('allAccounts.loadMore')}</button>
              </li>
            )}
          </ul>
        )}
      </li>
    );
  }

  const userRows = users?.items ?? [];
  const total = users?._metadata.totalItems ?? 0;
  const limit = users?._metadata.limit ?? 10;

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div ref={behindRef} className="gh-ap-users">
        <div className="gh-ap-users-head">
          <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
          {may('createSubAccount') && selected && (
            <button type="button" className="gh-ap-button" onClick={() => { setNotice(null); setDialog({ kind: 'create' }); }}>{t.t('allAccounts.create')}</button>
          )}
        </div>
        <p className="gh-ap-status" role="status">{notice ?? ''}</p>
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-acct-layout">
          <nav className="gh-ap-acct-tree" aria-label={t.t('allAccounts.tree')}>
            {vis('search') !== 'hidden' && (
              <div className="gh-ap-field">
                <label className="gh-ap-label" htmlFor={`${headingId}-search`}>{t.t('allAccounts.search')}</label>
                <input id={`${headingId}-search`} className="gh-ap-input" type="search" placeholder={t.t('allAccounts.searchPlaceholder')} value={search} maxLength={100} onChange={(e) => setSearch(e.target.value)} />
              </div>
            )}
            {loading && !root && (<><p className="gh-ap-visually-hidden" role="status">{t.t('allAccounts.loading')}</p><TableSkeleton rows={3} /></>)}
            {results ? (
              <ul className="gh-ap-acct-list" aria-label={t.t('allAccounts.results')}>
                {results.length === 0 && <li className="gh-ap-hint">{t.t('allAccounts.noResults')}</li>}
                {results.map((account) => renderNode({ ...account, numberOfSubAccounts: 0 }, 0))}
              </ul>
            ) : (
              root && <ul className="gh-ap-acct-list">{renderNode(root, 0)}</ul>
            )}
          </nav>

          <div className="gh-ap-acct-panel" aria-live="polite">
            {selected && (
              <>
                <nav aria-label={t.t('allAccounts.parents')}>
                  <ol className="gh-ap-acct-crumbs">
                    {selected.parentsAccounts.map((p) => (
                      <li key={p.tenantId}><button type="button" className="gh-ap-link" onClick={() => select(p.tenantId)}>{p.name}</button></li>
                    ))}
                    <li aria-current="page">{selected.name}</li>
                  </ol>
                </nav>
                <h3 className="gh-ap-acct-title">{selected.name}</h3>
                <dl className="gh-ap-acct-facts">
                  <div><dt>{t.t('allAccounts.fact.tenantId')}</dt><dd><code>{selected.tenantId}</code></dd></div>
                  <div><dt>{t.t('allAccounts.fact.users')}</dt><dd data-testid="users-count">{selected.numberOfUsers}</dd></div>
                  <div><dt>{t.t('allAccounts.fact.subAccounts')}</dt><dd>{selected.numberOfSubAccounts}</dd></div>
                  <div><dt>{t.t('allAccounts.fact.access')}</dt><dd>{t.t(accessLabel(selected.subAccountAccessType))}</dd></div>
                  <div><dt>{t.t('allAccounts.fact.management')}</dt><dd>{t.t(selected.isReseller ? 'allAccounts.enabled' : 'allAccounts.disabled')}</dd></div>
                  <div><dt>{t.t('allAccounts.fact.type')}</dt><dd>{selected.tenantType}</dd></div>
                </dl>
                <div className="gh-ap-acct-actions">
                  {!isOwn && may('updateSubAccount') && <button type="button" className="gh-ap-button-secondary" onClick={() => setDialog({ kind: 'update' })}>{t.t('allAccounts.update')}</button>}
                  {!isOwn && may('management') && (
                    <button type="button" className="gh-ap-button-secondary" onClick={() => setDialog({ kind: 'management' })}>{t.t(selected.isReseller ? 'allAccounts.disableManagement' : 'allAccounts.enableManagement')}</button>
                  )}
                  {may('hierarchySettings') && <button type="button" className="gh-ap-button-secondary" onClick={() => setDialog({ kind: 'settings' })}>{t.t('allAccounts.hierarchySettings')}</button>}
                  {!isOwn && may('addUsers') && <button type="button" className="gh-ap-button-secondary" onClick={() => void withRoles((roles) => ({ kind: 'addUsers', roles }))}>{t.t('allAccounts.addUsers')}</button>}
                  {!isOwn && may('deleteSubAccount') && <button type="button" className="gh-ap-button-secondary gh-ap-acct-danger" onClick={() => setDialog({ kind: 'delete' })}>{t.t('allAccounts.delete')}</button>}
                </div>

                {vis('users') !== 'hidden' && users && (
                  <>
                    <div className="gh-ap-table-wrap">
                      <table className="gh-ap-table">
                        <caption className="gh-ap-visually-hidden">{t.t('allAccounts.usersOf', { name: selected.name })}</caption>
                        <thead>
                          <tr>
                            <th scope="col">{t.t('allAccounts.column.user')}</th>
                            <th scope="col">{t.t('allAccounts.column.roles')}</th>
                            <th scope="col">{t.t('allAccounts.column.access')}</th>
                            {canWrite && <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>}
                          </tr>
                        </thead>
                        <tbody>
                          {userRows.map((u) => (
                            <tr key={u.id}>
                              <th scope="row"><div className="gh-ap-acct-user"><span>{u.name}</span>{u.email && <span className="gh-ap-hint">{u.email}</span>}</div></th>
                              <td>{u.roles.map((r) => r.name).join(', ') || t.t('allAccounts.noRoles')}</td>
                              <td>{t.t(u.subAccountAccessAllowed ? 'allAccounts.allowed' : 'allAccounts.notAllowed')}</td>
                              {canWrite && (
                                <td className="gh-ap-cell-actions">
                                  <RowMenu
                                    label={t.t('common.actionsFor', { name: userName(u) })}
                                    items={[
                                      ...(!isOwn && may('editUserRoles') ? [{ key: 'roles', label: t.t('allAccounts.rolesButton'), onSelect: () => void withRoles((roles) => ({ kind: 'roles', user: u, roles })) }] : []),
                                      // Nobody changes their own access (the server answers 400).
                                      ...(may('hierarchySettings') && selected.subAccountAccessType !== 'alwaysOn' && u.id !== user.id
                                        ? [{
                                            key: 'access',
                                            label: t.t(u.subAccountAccessAllowed ? 'allAccounts.revokeAccess' : 'allAccounts.grantAccess'),
                                            onSelect: () => {
                                              accounts.setUserAccess(selected.tenantId, u.id, !u.subAccountAccessAllowed).then(
                                                () => finish(t.t(u.subAccountAccessAllowed ? 'allAccounts.done.accessRevoked' : 'allAccounts.done.accessGranted', { who: userName(u) })),
                                                (thrown) => setError(errorMessage(thrown)),
                                              );
                                            },
                                          }]
                                        : []),
                                      ...(!isOwn && may('deleteUser') ? [{ key: 'remove', label: t.t('allAccounts.remove'), danger: true, onSelect: () => setDialog({ kind: 'removeUser', user: u }) }] : []),
                                    ]}
                                  />
                                </td>
                              )}
                            </tr>
                          ))}
                          {userRows.length === 0 && (
                            <tr><td colSpan={canWrite ? 4 : 3}><div className="gh-ap-table-empty">{t.t('allAccounts.noUsers')}</div></td></tr>
                          )}
                        </tbody>
                      </table>
                    </div>
                    {total > limit && (
                      <div className="gh-ap-pager">
                        <span>{t.t('allAccounts.range', { from: usersOffset + 1, to: Math.min(usersOffset + limit, total), total })}</span>
                        <button type="button" className="gh-ap-button-secondary" disabled={usersOffset === 0} onClick={() => setUsersOffset(Math.max(0, usersOffset - limit))}>{t.t('common.previous')}</button>
                        <button type="button" className="gh-ap-button-secondary" disabled={usersOffset + limit >= total} onClick={() => setUsersOffset(usersOffset + limit)}>{t.t('common.next')}</button>
                      </div>
                    )}
                  </>
                )}
              </>
            )}
          </div>
        </div>
      </div>

      {selected && dialog?.kind === 'create' && (
        <AccountDialog
          account={null}
          parent={selected}
          onClose={() => setDialog(null)}
          save={async (input) => {
            const created = await accounts.create(selected.tenantId, input);
            setExpanded((open) => new Set([...open, selected.tenantId]));
            await finish(t.t('allAccounts.done.created', { name: created.name }));
          }}
        />
      )}
      {selected && dialog?.kind === 'update' && (
        <AccountDialog account={selected} parent={selected} onClose={() => setDialog(null)} save={async (input) => { await accounts.rename(selected.tenantId, input.name); await finish(t.t('allAccounts.done.updated', { name: input.name.trim() })); }} />
      )}
      {selected && dialog?.kind === 'delete' && (
        <DeleteDialog
          title={t.t('allAccounts.deleteDialog.title', { name: selected.name })}
          text={t.t('allAccounts.deleteDialog.text', { name: selected.name })}
          onClose={() => setDialog(null)}
          run={async () => {
            await accounts.remove(selected.tenantId);
            await finish(t.t('allAccounts.done.deleted', { name: selected.name }), selected.parentTenantId ?? root?.tenantId);
          }}
        />
      )}
      {selected && dialog?.kind === 'management' && (
        <DeleteDialog
          title={t.t(selected.isReseller ? 'allAccounts.managementDialog.disableTitle' : 'allAccounts.managementDialog.enableTitle')}
          text={t.t(selected.isReseller ? 'allAccounts.managementDialog.disableText' : 'allAccounts.managementDialog.enableText', { name: selected.name })}
          confirmLabel={t.t(selected.isReseller ? 'allAccounts.managementDialog.disable' : 'allAccounts.managementDialog.enable')}
          onClose={() => setDialog(null)}
          run={async () => {
            await accounts.setManagement(selected.tenantId, !selected.isReseller);
            await finish(t.t(selected.isReseller ? 'allAccounts.done.managementDisabled' : 'allAccounts.done.managementEnabled', { name: selected.name }));
          }}
        />
      )}
      {selected && dialog?.kind === 'settings' && (
        <HierarchySettingsDialog account={selected} onClose={() => setDialog(null)} save={async (type) => { await accounts.setHierarchySettings(selected.tenantId, type); await finish(t.t('allAccounts.done.settings', { name: selected.name })); }} />
      )}
      {selected && dialog?.kind === 'addUsers' && (
        <AddUsersDialog
          account={selected}
          roles={dialog.roles}
          search={async (filter) => (await accounts.searchOwnUsers(filter)).items}
          onClose={() => setDialog(null)}
          save={async (userIds, roleIds) => {
            await accounts.addUsers(selected.tenantId, userIds, roleIds);
            await finish(t.t('allAccounts.done.usersAdded', { count: userIds.length, name: selected.name }));
          }}
        />
      )}
      {selected && dialog?.kind === 'removeUser' && (
        <DeleteDialog
          title={t.t('allAccounts.removeDialog.title', { who: userName(dialog.user) })}
          text={t.t('allAccounts.removeDialog.text', { who: userName(dialog.user), name: selected.name })}
          confirmLabel={t.t('allAccounts.remove')}
          onClose={() => setDialog(null)}
          run={async () => {
            await accounts.removeUser(selected.tenantId, dialog.user.id);
            await finish(t.t('allAccounts.done.userRemoved', { who: userName(dialog.user), name: selected.name }));
          }}
        />
      )}
      {selected && dialog?.kind === 'roles' && (
        <UserRolesDialog
          who={userName(dialog.user)}
          roles={dialog.roles}
          current={dialog.user.roles.map((r) => r.id)}
          onClose={() => setDialog(null)}
          save={async (roleIds) => {
            await accounts.setUserRoles(selected.tenantId, dialog.user.id, roleIds);
            await finish(t.t('allAccounts.done.roles', { who: userName(dialog.user) }));
          }}
        />
      )}
    </section>
  );
}
