/**
 * Passkeys flow (seed 000 sections 4.2 and 7.2): sign-in with a passkey, adding one, listing and
 * removing them, and the promptPasskeys step after sign-in. The browser ceremony itself is passed
 * in by the bundle, which loads @simplewebauthn/browser only when the user asks for it.
 */
import type { GatehouseStore, PasskeyLoginCeremony, PasskeyRegistrationCeremony } from '../../core/types';
import { toGatehouseError } from '../../errors';
import type { LoginResponse } from '../../wire';
import { PASSKEYS_STRATEGY } from '../../wire/passwordless/passkeys';
import { ApiPaths } from '../../wire/paths';
import type { PasskeyDevice, PasskeyDevicesResponse, PasskeyPreLoginResponse, PasskeyRegistrationOptionsResponse } from '../../wire/passwordless/webauthn';
import type { FlowContext } from '../flow-context';
import { PASSKEYS_DONT_SHOW_AGAIN_KEY, PREFERRED_LOGIN_METHOD_KEY, shouldPromptPasskeys } from '../passkeys-prompt';
import type { KeyValueStorage } from '../store';

export type PasskeysFlow = Pick<
  GatehouseStore,
  'loginWithPasskey' | 'registerPasskey' | 'loadPasskeys' | 'removePasskey' | 'shouldPromptPasskeys' | 'dismissPasskeyPrompt'
>;

export interface PasskeysFlowOptions {
  /** Where the preferred method and "Don't show again" are kept (default `localStorage`; null: nowhere). */
  storage?: KeyValueStorage | null;
}

/** What the user sees when the browser's passkey dialog is cancelled, times out or is refused. */
export const PASSKEY_CANCELLED_MESSAGE = 'The passkey request was cancelled or timed out';

function defaultStorage(): KeyValueStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Access throws in sandboxed frames with storage disabled.
    return null;
  }
}

/** API errors keep their message; a DOMException from the ceremony becomes a plain sentence. */
function messageOf(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return PASSKEY_CANCELLED_MESSAGE;
  if (name === 'InvalidStateError') return 'This passkey is already registered';
  if (name === 'NotSupportedError' || name === 'SecurityError') return 'Passkeys are not available in this browser or on this page';
  return toGatehouseError(error).message;
}

export function createPasskeysFlow(ctx: FlowContext, options: PasskeysFlowOptions = {}): PasskeysFlow {
  const { api, atoms } = ctx;
  const storage = options.storage === undefined ? defaultStorage() : options.storage;

  function read(key: string): string | null {
    try {
      return storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }
  function write(key: string, value: string | null): void {
    try {
      if (value === null) storage?.removeItem(key);
      else storage?.setItem(key, value);
    } catch {
      // Storage full or disabled: the choice lasts for this page only.
    }
  }

  async function fetchDevices(): Promise<PasskeyDevice[]> {
    const { devices } = await api.request<PasskeyDevicesResponse>('GET', ApiPaths.webauthnDevices);
    ctx.patch(atoms.passkeys, { devices });
    return devices;
  }

  return {
    async loginWithPasskey(ceremony: PasskeyLoginCeremony, email?: string) {
      const trimmed = email?.trim() || undefined;
      ctx.patch(atoms.login, { loading: true, error: null });
      try {
        const { options: requestOptions } = await api.request<PasskeyPreLoginResponse>('POST', ApiPaths.webauthnPreLogin, { body: trimmed ? { email: trimmed } : {} });
        const credential = await ceremony(requestOptions);
        const response = await api.request<LoginResponse>('POST', ApiPaths.webauthnPostLogin, { body: { credential } });
        write(PREFERRED_LOGIN_METHOD_KEY, PASSKEYS_STRATEGY);
        await ctx.completeLogin(response);
      } catch (error) {
        ctx.patch(atoms.login, { loading: false, error: messageOf(error) });
      }
    },

    async registerPasskey(ceremony: PasskeyRegistrationCeremony) {
      ctx.patch(atoms.passkeys, { loading: true, error: null, registered: false });
      try {
        const { options: creationOptions } = await api.request<PasskeyRegistrationOptionsResponse>('POST', ApiPaths.webauthnDevices);
        const credential = await ceremony(creationOptions);
        const device = await api.request<PasskeyDevice>('POST', ApiPaths.webauthnDevicesVerify, { body: { credential } });
        const devices = ctx.get(atoms.passkeys).devices ?? [];
        ctx.patch(atoms.passkeys, { loading: false, registered: true, devices: [...devices.filter((d) => d.id !== device.id), device] });
        write(PREFERRED_LOGIN_METHOD_KEY, PASSKEYS_STRATEGY);
        return true;
      } catch (error) {
        ctx.patch(atoms.passkeys, { loading: false, error: messageOf(error) });
        return false;
      }
    },

    async loadPasskeys() {
      ctx.patch(atoms.passkeys, { loading: true, error: null });
      try {
        await fetchDevices();
        ctx.patch(atoms.passkeys, { loading: false });
      } catch (error) {
        ctx.patch(atoms.passkeys, { loading: false, error: messageOf(error) });
      }
    },

    async removePasskey(id) {
      ctx.patch(atoms.passkeys, { loading: true, error: null });
      try {
        await api.request<unknown>('DELETE', ApiPaths.webauthnDevice.replace('{deviceId}', encodeURIComponent(id)));
        const devices = await fetchDevices();
        // With no passkey left, passkeys can no longer be the preferred way in.
        if (devices.length === 0 && read(PREFERRED_LOGIN_METHOD_KEY) === PASSKEYS_STRATEGY) write(PREFERRED_LOGIN_METHOD_KEY, null);
        ctx.patch(atoms.passkeys, { loading: false });
      } catch (error) {
        ctx.patch(atoms.passkeys, { loading: false, error: messageOf(error) });
      }
    },

    async shouldPromptPasskeys() {
      try {
        // Cheap local conditions first: most sign-ins need no extra call.
        const preferredLoginMethod = read(PREFERRED_LOGIN_METHOD_KEY);
        const dontShowAgain = read(PASSKEYS_DONT_SHOW_AGAIN_KEY) === 'true';
        const cheap = { flags: ctx.flags, preferredLoginMethod, dontShowAgain, deviceCount: 0 };
        if (!shouldPromptPasskeys({ ...cheap, secondaryLoginStrategies: [{ strategy: PASSKEYS_STRATEGY, isActive: true }] })) return false;
        let vendor = ctx.get(atoms.vendor);
        if (!vendor) {
          vendor = await api.vendorPublic();
          ctx.set(atoms.vendor, vendor);
        }
        if (!shouldPromptPasskeys({ ...cheap, secondaryLoginStrategies: vendor.secondaryLoginStrategies })) return false;
        const devices = await fetchDevices();
        return shouldPromptPasskeys({ ...cheap, secondaryLoginStrategies: vendor.secondaryLoginStrategies, deviceCount: devices.length });
      } catch {
        // The prompt is optional: a failed lookup never holds up the sign-in.
        return false;
      }
    },

    dismissPasskeyPrompt({ dontShowAgain = false } = {}) {
      if (dontShowAgain) write(PASSKEYS_DONT_SHOW_AGAIN_KEY, 'true');
      ctx.patch(atoms.login, { step: 'success', loading: false, error: null });
      ctx.patch(atoms.passkeys, { registered: false, error: null });
      ctx.go(ctx.afterAuthTarget());
    },
  };
}
