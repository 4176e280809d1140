/**
 * External authentication (seed 000 section 4.10): the host hands the app a token it got
 * elsewhere. With a token the user is set (the profile, which carries the user's tenants, is
 * loaded with that token); with null the user is cleared. Part of the host-extras chunk: loaded on the first call.
 */
import { ApiPaths, createApiClient, type ApiClientOptions, type GatehouseStore, type MeResponse } from '@gatehouse/shared';
import { decodeTokenPayload } from '../../../shared/src/auth/token-payload';

/** Seed 000 section 9: the default OAuth expiresIn, for a token without `exp`. */
const DEFAULT_EXPIRES_IN_S = 300;

export interface ExternalAuthOptions extends Omit<ApiClientOptions, 'getAccessToken'> {
  store: Pick<GatehouseStore, 'hydrate' | 'getAccessToken'>;
  now?: () => number;
}

export interface ExternalAuth {
  /** Sets (token) or clears (null) the signed-in user; a malformed token rejects with the seed's message and changes nothing. */
  setAuthentication(token: string | null): Promise<void>;
}

export function createExternalAuth(options: ExternalAuthOptions): ExternalAuth {
  const { store, now = Date.now, ...client } = options;
  // The latest call wins: an older token's profile arriving late never replaces a newer choice.
  let call = 0;
  return {
    async setAuthentication(token) {
      const mine = ++call;
      if (token === null || token === undefined) {
        store.hydrate(null);
        return;
      }
      const claims = decodeTokenPayload(token);
      const exp = typeof claims.exp === 'number' ? claims.exp : null;
      const expiresIn = exp === null ? DEFAULT_EXPIRES_IN_S : Math.floor(exp - now() / 1000);
      if (expiresIn <= 0) throw new Error('The token has expired');
      // This token, not the store's, authenticates the profile call.
      const api = createApiClient({ ...client, getAccessToken: () => token });
      const me = await api.request<MeResponse>('GET', ApiPaths.me);
      if (mine !== call) return;
      store.hydrate({
        login: { accessToken: token, expiresIn, expires: new Date(now() + expiresIn * 1000).toUTCString(), mfaRequired: false, tenantId: me.tenantId, userId: me.id },
        me,
      });
    },
  };
}
