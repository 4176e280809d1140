import { lazy, Suspense } from 'react';
import { useI18n } from '../use-i18n';
import { useTenantChoice } from './tenants/use-tenant-choice';

// Its own chunk, fetched only after sign-in, and only for a user in several tenants whose host asked for the choice.
const TenantChoice = lazy(() => import('./tenants/TenantChoice'));

/**
 * The login's `success` step. With `authOptions.chooseTenantAfterLogin`, a user in several tenants
 * chooses the one to continue in here (the store holds the navigation until Continue); anyone else
 * sees that they are signed in while the page moves on. The SSO and social callback screens show
 * it too when the choice applies (a sign-in there ends the same way).
 */
export default function SignedInStep() {
  const { t } = useI18n();
  const choose = useTenantChoice();
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
