/**
 * What a sign-in flow module (shared/src/auth/flows/<flow>.ts) gets from the store: the API, the
 * atoms, navigation, timers, and the session helpers every flow ends with. A flow module exports
 * `create<Flow>Flow(ctx)` returning its store methods; `createGatehouseStore` spreads them in.
 * This keeps each flow in its own file instead of growing store.ts.
 */
import type { PrimitiveAtom } from 'jotai/vanilla';
import type { AuthRoutes, AuthUser, GatehouseApi } from '../core/types';
import type { LoginResponse } from '../wire';
import type { CaptchaAction } from '../wire/platform/captcha';
import type { AuthAtoms } from './state';
import type { TrackedTimers } from './timers';

export interface FlowContext {
  api: GatehouseApi;
  routes: AuthRoutes;
  atoms: AuthAtoms;
  /** after(ms, fn), sleep(ms), cancel(handle): all cancelled when the store is disposed. */
  timers: TrackedTimers;
  now: () => number;
  flags: Record<string, string>;
  get<T>(atom: PrimitiveAtom<T>): T;
  set<T>(atom: PrimitiveAtom<T>, value: T): void;
  patch<T extends object>(atom: PrimitiveAtom<T>, changes: Partial<T>): void;
  /** Navigates (no-op once the store is disposed). */
  go(url: string): void;

  /**
   * Navigates to `target()` after `ms` (a success state the seed shows for a while), unless
   * `store.continueNow()` goes there first; a later call replaces a pending one.
   */
  goAfter(ms: number, target: () => string): void;
  /** Token -> me -> user; clears the session and rethrows when `me` fails. */
  establishSession(login: LoginResponse): Promise<AuthUser>;
  /** The stored after-auth URL if valid and not a login/logout/activate route, else authenticatedUrl. */
  afterAuthTarget(): string;
  /** A login response that needs no further step: session, the `success` step, navigation. */
  completeLogin(login: LoginResponse): Promise<void>;
  /** A sign-in answered mfaRequired: keep the mfaToken and show loginWithTwoFactor or forceTwoFactor. */
  beginMfa(login: LoginResponse, email: string): void | Promise<void>;
  /** The recaptchaToken for a protected call while the captcha policy is on, else undefined; rejects with the reason the user sees. */
  captchaToken(action: CaptchaAction): Promise<string | undefined>;
}
