import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';

/**
 * Does the signed-in step offer the tenant choice? Only when the host asked for it
 * (`authOptions.chooseTenantAfterLogin`, which also makes the store hold the navigation) and the
 * user is in more than one tenant. Read by every screen a sign-in can end on (the login route and
 * the SSO and social callback routes), so none of them is left waiting for a Continue it lacks.
 */
export function useTenantChoice(): boolean {
  const { store, options } = useLoginBox();
  const { user } = useAuth(store);
  return options.chooseTenantAfterLogin === true && (user?.tenants.length ?? 0) > 1;
}
