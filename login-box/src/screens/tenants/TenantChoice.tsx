import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useI18n } from '../../use-i18n';
import { SubmitButton } from '../../components/SubmitButton';

/**
 * The login box's tenant switcher after sign-in (issue 14), for a user in several tenants: the
 * current tenant is chosen; choosing another switches the session through the store (PUT
 * users/v1/tenant, then a token for that tenant), and Continue goes where the sign-in was leading.
 * A refused switch keeps the current tenant and says so.
 */
export default function TenantChoice() {
  const { store } = useLoginBox();
  const { user } = useAuth(store);
  const { t } = useI18n();
  const id = useId();
  const select = useRef<HTMLSelectElement>(null);
  const [switching, setSwitching] = useState(false);
  const [failed, setFailed] = useState(false);
  // The step replaced the form the user was in, and a switch disables the list for its time: focus goes (back) to the choice.
  useEffect(() => {
    if (!switching) select.current?.focus();
  }, [switching]);
  if (!user) return null;

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
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!switching) store.continueNow();
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={switching}>
      {/* The address isolated (FSI…PDI): it reads left to right inside a Hebrew sentence too. */}
      <p className="gh-hint">{t('tenants.signedInAs', { email: `\u2068${user.email}\u2069` })}</p>
      <div className="gh-field">
        <label htmlFor={id}>{t('tenants.label')}</label>
        <select ref={select} id={id} value={user.tenantId} disabled={switching} aria-describedby={`${id}-hint`} onChange={(event) => void change(event)}>
          {user.tenants.map((tenant) => (
            <option key={tenant.tenantId} value={tenant.tenantId}>
              {tenant.name}
            </option>
          ))}
        </select>
        <p id={`${id}-hint`} className="gh-hint">
          {t('tenants.hint')}
        </p>
      </div>
      {failed ? (
        <div role="alert" className="gh-alert">
          {t('tenants.switchFailed')}
        </div>
      ) : null}
      <SubmitButton busy={switching}>{t('common.continue')}</SubmitButton>
    </form>
  );
}
