import { useEffect } from 'react';
import { useLoginBox } from '../context';
import { useI18n } from '../use-i18n';

/** The logout route: signs out (server call, local clear) and the store navigates to login. */
export function LogoutScreen() {  const { store } = useLoginBox();
  const { t } = useI18n();
  useEffect(() => {
    void store.logout();
  }, [store]);
  return (
    <>
      <h1>{t('logout.title')}</h1>
      <p role="status" className="gh-status">
        <span className="gh-spinner" aria-hidden="true" /> {t('logout.text')}
      </p>
    </>
  );
}
