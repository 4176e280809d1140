import { describe, expect, it } from 'vitest';
import { MfaStrategies } from '@gatehouse/shared/wire';
import { loadConfig } from '../../config';
import { activeMfaStrategies, mfaStrategiesConfig, requireActiveStrategy, strategyOfDevice } from './strategies';
import { deviceTypeOf } from './webauthn';

const all = Object.values(MfaStrategies);

describe('MFA strategies', () => {
  it('SMS is on only when a text can be delivered: an SMS provider, or the dev outbox in dev mode', () => {
    expect(activeMfaStrategies({ mfaStrategies: all, smsHttpUrl: null, dev: false }).has('SMS')).toBe(false);
    expect(activeMfaStrategies({ mfaStrategies: all, smsHttpUrl: 'https://sms.example.com/send', dev: false }).has('SMS')).toBe(true);
    expect(activeMfaStrategies({ mfaStrategies: all, smsHttpUrl: null, dev: true }).has('SMS')).toBe(true);
    // Production without a provider: the strategies config says SMS is off.
    const production = loadConfig({ NODE_ENV: 'production', GATEHOUSE_PUBLIC_URL: 'https://id.example.com' });
    expect(mfaStrategiesConfig(activeMfaStrategies(production))).toContainEqual({ strategy: 'SMS', isActive: false });
  });

  it('maps stored devices to their method: a WebAuthn device by its type', () => {
    expect(strategyOfDevice({ type: 'authenticator', device_type: null })).toBe('AuthenticatorApp');
    expect(strategyOfDevice({ type: 'email', device_type: null })).toBe('EmailCode');
    expect(strategyOfDevice({ type: 'sms', device_type: null })).toBe('SMS');
    expect(strategyOfDevice({ type: 'webauthn', device_type: 'internal' })).toBe('WebAuthnPlatform');
    expect(strategyOfDevice({ type: 'webauthn', device_type: 'usb-key' })).toBe('WebAuthnCrossPlatform');
    expect(strategyOfDevice({ type: 'webauthn', device_type: 'android' })).toBe('WebAuthnCrossPlatform');
  });

  it('names the seed device type of a new key from the attachment the browser reports and its transports', () => {
    expect(deviceTypeOf('platform', 'platform', ['internal'])).toBe('internal');
    expect(deviceTypeOf('cross-platform', 'cross-platform', ['usb', 'nfc'])).toBe('usb-key');
    expect(deviceTypeOf('cross-platform', 'cross-platform', ['hybrid', 'internal'])).toBe('android');
    // Without a reported attachment the transports and the request decide.
    expect(deviceTypeOf('cross-platform', undefined, ['internal'])).toBe('internal');
    expect(deviceTypeOf('cross-platform', undefined, [])).toBe('usb-key');
  });

  it('refuses a method that is off with 403 mfaStrategyNotActive', () => {
    const active = activeMfaStrategies({ mfaStrategies: ['AuthenticatorApp'], smsHttpUrl: null, dev: true });
    expect(() => requireActiveStrategy(active, 'AuthenticatorApp')).not.toThrow();
    expect(() => requireActiveStrategy(active, 'SMS')).toThrow(expect.objectContaining({ status: 403, code: 'ER-01308' }));
  });
});
