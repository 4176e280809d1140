/**
 * Entitlements in the browser (issue 13; seed 000 sections 3 and 6): the signed-in user's
 * entitlements (GET entitlements v2) and the checks over them. A chunk of its own: the runtime
 * imports it only when `entitlementsOptions.enabled` is set and a user is signed in, so the
 * evaluator never adds to what the login form needs.
 */
import { isEntitledToFeature, isEntitledToPermission, type CheckOptions, type CustomAttributes, type EntitlementsContext } from '@gatehouse/shared/entitlements';
import { EntitlementPaths } from '../../../shared/src/wire/entitlements/paths';
import type { GatehouseApi } from '@gatehouse/shared';
import type { EntitlementQuery, LoadedEntitlements } from '../types';

/** The entitlements of whoever is signed in, loaded anew for every access token. */
export interface EntitlementsLoader {
  /**
   * Loads the caller's entitlements. `identity` names the user and tenant the token is for: a new
   * one drops the previous value at once; for the same one a failed load keeps the last good value.
   */
  load(identity: string): Promise<void>;
  /** Signed out: nothing is kept. */
  clear(): void;
  /** The checks, once a value has loaded for the current identity; else null. */
  loaded(): LoadedEntitlements | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The answer as an EntitlementsContext, or null when it is not one (an answer is never trusted blindly). */
export function toEntitlementsContext(answer: unknown): EntitlementsContext | null {
  if (!isRecord(answer) || !isRecord(answer.features) || !isRecord(answer.plans) || !isRecord(answer.permissions)) return null;
  for (const feature of Object.values(answer.features)) {
    if (!isRecord(feature) || !Array.isArray(feature.linkedPermissions) || !Array.isArray(feature.planIds)) return null;
    if (feature.expireTime !== null && typeof feature.expireTime !== 'number') return null;
  }
  // `explain` (the server's own explanation) is not kept: checks here explain themselves. The
  // tenant's plan is kept when the server names one (a plan gate reads it), null otherwise.
  const planId = typeof answer.planId === 'string' ? answer.planId : null;
  return { features: answer.features, plans: answer.plans, permissions: answer.permissions, planId } as EntitlementsContext;
}

/** The access token's claims, unverified: they only feed the `jwt.*` attributes of a check the server verifies anyway. */
export function accessTokenClaims(token: string | null | undefined): Record<string, unknown> {
  const part = token?.split('.')[1];
  if (!part) return {};
  try {
    const binary = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const claims: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    return isRecord(claims) ? claims : {};
  } catch {
    return {};
  }
}

/** A check's subject, read defensively: hosts call this from plain JavaScript too. */
function subjectOf(query: EntitlementQuery): { featureKey: string } | { permissionKey: string } {
  const q = query as { featureKey?: unknown; permissionKey?: unknown } | null | undefined;
  if (typeof q?.featureKey === 'string') return { featureKey: q.featureKey };
  if (typeof q?.permissionKey === 'string') return { permissionKey: q.permissionKey };
  throw new TypeError('isEntitledTo needs { featureKey } or { permissionKey }');
}

/**
 * Creates the loader; `getAccessToken` gives the current token, whose claims are the checks' `jwt`
 * attributes. `onChange` is called whenever what `loaded()` answers changes (a value loaded, or dropped).
 */
export function createEntitlements(api: Pick<GatehouseApi, 'request'>, getAccessToken: () => string | null, onChange: () => void = () => undefined): EntitlementsLoader {
  let identity: string | null = null;
  let context: EntitlementsContext | null = null;
  // Only the newest load may set the value: an older answer arriving late is dropped.
  let latest = 0;
  const set = (next: EntitlementsContext | null) => {
    if (next === context) return;
    context = next;
    onChange();
  };

  const checks: LoadedEntitlements = {
    get: () => context!,
    isEntitledTo(query, customAttributes?: CustomAttributes, options?: Pick<CheckOptions, 'explain'>) {
      const subject = subjectOf(query);
      const attributes = { custom: customAttributes, jwt: accessTokenClaims(getAccessToken()) };
      const checkOptions = { explain: options?.explain === true };
      return 'featureKey' in subject
        ? isEntitledToFeature(subject.featureKey, context, attributes, checkOptions)
        : isEntitledToPermission(subject.permissionKey, context, attributes, checkOptions);
    },
  };

  return {
    async load(next) {
      if (next !== identity) {
        identity = next;
        set(null);
      }
      const call = ++latest;
      try {
        const value = toEntitlementsContext(await api.request<unknown>('GET', EntitlementPaths.userEntitlements));
        if (value && call === latest && identity === next) set(value);
      } catch {
        // Seed 000 section 8: entitlement load failures are ignored; the last good value stays.
      }
    },
    clear() {
      identity = null;
      latest += 1;
      set(null);
    },
    loaded: () => (context ? checks : null),
  };
}
