/**
 * Which MFA methods are on (seed 000 section 3 "mfaStrategies (strategy, isActive)"; MFA_STRATEGIES),
 * and which method a stored device belongs to. Pure: no HTTP, no SQL.
 */
import { ErrorCodes, MfaStrategies, type MfaStrategy, type MfaStrategyState } from '@gatehouse/shared/wire';
import type { Config } from '../../config';
import type { MfaDeviceRow } from '../../db/queries/mfa-devices';
import { AppError } from '../../errors';

/** Every MFA method, in the order the seed lists them. */
export const ALL_MFA_STRATEGIES: readonly MfaStrategy[] = [
  MfaStrategies.authenticatorApp,
  MfaStrategies.webAuthnPlatform,
  MfaStrategies.webAuthnCrossPlatform,
  MfaStrategies.sms,
  MfaStrategies.emailCode,
];

/** The methods on: configured, and for SMS only when a text can be delivered (a provider, or the dev outbox in dev mode). */
export function activeMfaStrategies(config: Pick<Config, 'mfaStrategies' | 'smsHttpUrl' | 'dev'>): ReadonlySet<MfaStrategy> {
  const smsDeliverable = config.smsHttpUrl !== null || config.dev;
  return new Set(config.mfaStrategies.filter((s) => s !== MfaStrategies.sms || smsDeliverable));
}

/** The vendor's MFA strategies config: every method with whether it is on. */
export function mfaStrategiesConfig(active: ReadonlySet<MfaStrategy>): MfaStrategyState[] {
  return ALL_MFA_STRATEGIES.map((strategy) => ({ strategy, isActive: active.has(strategy) }));
}

/** The method a device proves: a WebAuthn device by its type (internal: this device; usb-key, android: roaming). */
export function strategyOfDevice(device: Pick<MfaDeviceRow, 'type' | 'device_type'>): MfaStrategy | null {
  switch (device.type) {
    case 'authenticator':
      return MfaStrategies.authenticatorApp;
    case 'email':
      return MfaStrategies.emailCode;
    case 'sms':
      return MfaStrategies.sms;
    case 'webauthn':
      return device.device_type === 'internal' ? MfaStrategies.webAuthnPlatform : MfaStrategies.webAuthnCrossPlatform;
    default:
      return null;
  }
}

/** Refuses a method the config has turned off. */
export function requireActiveStrategy(active: ReadonlySet<MfaStrategy>, strategy: MfaStrategy): void {
  if (!active.has(strategy)) throw new AppError(ErrorCodes.mfaStrategyNotActive, 403, 'This two-factor method is turned off');
}
