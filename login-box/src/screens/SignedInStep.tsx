import { lazy, Suspense } from 'react';
import { useLoginBox } from '../context';
import { useAuth } from '../use-auth';
import { useI18n } from '../use-i18n';

// Its own chunk, fetched only after sign-in, and only for a user in several tenants whose host asked for the choice.
const TenantChoice = lazy(() => import('./tenants/TenantChoice'));

/**
 * The login's `success` step. With `authOptions.chooseTenantAfterLogin`, a user in several tenants
 * chooses the one to continue in here (the store holds the navigation until Continue); anyone else
 * sees that they are signed in while the page moves on.
 */
export default function SignedInStep() {
  const { store, options } = useLoginBox();
  const { user } = useAuth(store);
  const { t } = useI18n();
  const choose = options.chooseTenantAfterLogin === true && (user?.tenants.length ?? 0) > 1;
  return (
    <>
      <h1>{t('login.title')}</h1>
      {choose ? (
        <Suspense fallback={<p role="status">{t('common.loading')}</p>}>
          <TenantChoice />
        </Suspense>
      ) : (
        <p role="status">{t('login.signedIn')}</p>
      )}
    </>
  );
}
