import type { GatehouseStore } from '@gatehouse/shared';

/**
 * Seed 000 section 1 (native mobile bridge): after a password sign-in, an app (iOS or Android web
 * view) whose bridge reports suggestSavePassword is offered the email and password the server just
 * accepted. Called by the password step once `store.login` has settled. The bridge's code
 * (@gatehouse/shared/native-bridge, its own chunk) loads only on a page where an app announced
 * bridge functions; everywhere else this costs a property read.
 */
export function offerPasswordAfterLogin(store: Pick<GatehouseStore, 'getSnapshot'>, email: string, password: string): void {
  if (!(globalThis as { GatehouseNativeBridgeFunctions?: unknown }).GatehouseNativeBridgeFunctions) return;
  const step = store.getSnapshot().login.step;
  import('@gatehouse/shared/native-bridge')
    .then((m) => {
      if (m.PASSWORD_KEPT_STEPS.includes(step)) m.offerPasswordToApp(email, password);
    })
    .catch(() => undefined);
}
