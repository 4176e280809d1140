/**
 * What the runtime loads per signed-in caller, again with every new access token (sign-in, token
 * refresh, tenant switch): the feature flags evaluated for the caller's tenant and user (GET /flags
 * with the bearer token) and, when `entitlementsOptions.enabled` is set, their entitlements. The
 * entitlements code is a chunk of its own (entitlements.ts), imported at the first signed-in token.
 */
import type { GatehouseApi, GatehouseStore } from '@gatehouse/shared';
import type { LoadedEntitlements } from '../types';
import type { EntitlementsLoader } from './entitlements';

export interface CallerDataOptions {
  store: Pick<GatehouseStore, 'subscribe' | 'getSnapshot' | 'getAccessToken'>;
  api: Pick<GatehouseApi, 'flags' | 'request'>;
  /** The flags stage 1 fetched before anyone was known: what a signed-out page keeps. */
  anonymousFlags: Record<string, string>;
  entitlementsEnabled: boolean;
  /** Called when the caller's flags differ from the ones held. */
  onFlags(flags: Record<string, string>): void;
  /** Called when the caller's loaded entitlements change (loaded, replaced or dropped). */
  onEntitlements?(): void;
}

export interface CallerData {
  /** The flags for the current caller (the anonymous ones while signed out or until loaded). */
  flags(): Record<string, string>;
  /** The caller's loaded entitlements; null while off, signed out or not loaded yet. */
  entitlements(): LoadedEntitlements | null;
  stop(): void;
}

const isFlagRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');

/** Starts watching the store's signed-in user; the current one (if any) is loaded at once. */
export function watchCaller(options: CallerDataOptions): CallerData {
  const { store, api } = options;
  let flags = options.anonymousFlags;
  let token: string | null = null;
  // Each token's flag call has a number: an older answer arriving late never replaces a newer one.
  let flagCall = 0;
  let chunk: Promise<EntitlementsLoader> | null = null;
  let loader: EntitlementsLoader | null = null;

  const setFlags = (next: Record<string, string>) => {
    if (JSON.stringify(next) === JSON.stringify(flags)) return;
    flags = next;
    options.onFlags(next);
  };

  const onChange = () => {
    const user = store.getSnapshot().user;
    const next = user?.accessToken ?? null;
    if (next === token) return;
    token = next;
    const call = ++flagCall;
    if (!user) {
      loader?.clear();
      setFlags(options.anonymousFlags);
      return;
    }
    // A failed call keeps the flags held (seed 000 section 8: flags are not an error to show).
    api.flags().then((answer) => call === flagCall && isFlagRecord(answer) && setFlags(answer), () => undefined);
    if (!options.entitlementsEnabled) return;
    const identity = `${user.id}\n${user.tenantId}`;
    chunk ??= import('./entitlements').then((m) => (loader = m.createEntitlements(api, () => store.getAccessToken(), options.onEntitlements)));
    chunk.then(
      (entitlements) => (token === next ? entitlements.load(identity) : undefined),
      // The chunk could not load: the next token tries again.
      () => (chunk = null),
    );
  };

  onChange();
  const stop = store.subscribe(onChange);
  return { flags: () => flags, entitlements: () => loader?.loaded() ?? null, stop };
}
