import { useId, useState, type ChangeEvent } from 'react';
import type { AuthUser, GatehouseStore } from './contract';
import { useNamespaces } from './i18n/i18n-context';

/**
 * The portal header's account (tenant) switcher, for users in more than one tenant (issue 14).
 * Switching goes through the store (PUT users/v1/tenant, then a token for that tenant), so every
 * section re-reads the new tenant; a refused switch keeps the current one and says so.
 */
export function TenantSwitcher({ store, user }: { store: Pick<GatehouseStore, 'switchTenant'>; user: AuthUser }) {
  const t = useNamespaces(['shell']);
  const id = useId();
  const [switching, setSwitching] = useState(false);
  const [failed, setFailed] = useState(false);
  if (user.tenants.length < 2) return null;
  const change = async (event: ChangeEvent<HTMLSelectElement>) => {
    const tenantId = event.target.value;
    if (tenantId === user.tenantId) return;
    setSwitching(true);
    setFailed(false);
    try {
      await store.switchTenant(tenantId);
    } catch {
      setFailed(true);
    } finally {
      setSwitching(false);
    }
  };
  return (
    <div className="gh-ap-tenant-switch">
      <label htmlFor={id} className="gh-ap-label">{t.t('shell.tenant')}</label>
      <select id={id} className="gh-ap-select" value={user.tenantId} disabled={switching} aria-busy={switching} onChange={(event) => void change(event)}>
        {user.tenants.map((tenant) => (
          <option key={tenant.tenantId} value={tenant.tenantId}>{tenant.name}</option>
        ))}
      </select>
      {failed && <p className="gh-ap-tenant-switch-error" role="alert">{t.t('shell.tenantSwitchFailed')}</p>}
    </div>
  );
}
