/**
 * Preview routes of the Privacy section (docs/preview-mode.md): the signed-in user's sessions (this
 * one and a phone), second factors and passkeys. Signing a session out and removing a passkey are
 * simulated and audited; adding a factor or a passkey, and removing a factor (it asks for a code
 * from a real authenticator), are not.
 */
import { ApiPaths } from '../wire/paths';
import { SessionPaths } from '../wire/users/session-paths';
import { MfaFactorPaths } from '../wire/mfa/paths';
import type { UserSession } from '../wire/users/sessions';
import type { MfaStatusResponse } from '../wire/mfa/mfa';
import type { PasskeyDevice } from '../wire/passwordless/webauthn';
import { PREVIEW_VISITOR_IP } from './admin-sample-data';
import { fail, noContent, ok, type PreviewState, type Route } from './routes';

const SINCE = '2026-02-18T08:00:00.000Z';

export const PREVIEW_SESSIONS: readonly UserSession[] = [
  { id: 'preview-session-1', userAgent: 'Mozilla/5.0 (preview)', createdAt: SINCE, ipAddress: PREVIEW_VISITOR_IP, current: true, lastActiveAt: SINCE, device: { browser: 'Chrome', browserVersion: '131', os: 'macOS', type: 'desktop' } },
  { id: 'preview-session-2', userAgent: 'Mozilla/5.0 (iPhone; preview)', createdAt: '2026-02-10T18:30:00.000Z', ipAddress: '198.51.100.23', current: false, lastActiveAt: '2026-02-19T07:45:00.000Z', device: { browser: 'Safari', browserVersion: '18', os: 'iOS', type: 'mobile' } },
];

export const PREVIEW_PASSKEYS: readonly PasskeyDevice[] = [
  { id: 'preview-passkey-1', name: 'MacBook Touch ID', deviceType: 'multiDevice', backedUp: true, transports: ['internal'], createdAt: '2026-01-02T10:00:00.000Z', lastUsedAt: SINCE },
];

export function privacyRoutes(state: PreviewState): Route[] {
  let sessions: UserSession[] = structuredClone([...PREVIEW_SESSIONS]);
  let passkeys: PasskeyDevice[] = structuredClone([...PREVIEW_PASSKEYS]);
  const mfaStatus = (): MfaStatusResponse => ({
    enrolled: state.me().mfaEnrolled,
    enforce: 'optional',
    devices: { webauthn: [], phones: [], emails: [], authenticators: state.me().mfaEnrolled ? [{ id: 'preview-authenticator-1', createdAt: '2026-01-02T09:30:00.000Z' }] : [] },
    recoveryCodesLeft: state.me().mfaEnrolled ? 8 : 0,
  });
  return [
    ['GET', SessionPaths.mySessions, () => ok(sessions)],
    ['DELETE', SessionPaths.myOtherSessions, () => {
      const revoked = sessions.filter((s) => !s.current).length;
      sessions = sessions.filter((s) => s.current);
      state.audit('Sessions signed out', `${state.me().email} signed out ${revoked} other sessions`);
      return ok({ revoked });
    }],
    ['DELETE', SessionPaths.mySession, ({ params }) => {
      const session = sessions.find((s) => s.id === params.sessionId);
      if (!session) return fail(404, 'Session not found');
      sessions = sessions.filter((s) => s !== session);
      state.audit('Session signed out', `${state.me().email} signed out the session on ${session.device.browser ?? 'a browser'} (${session.device.os ?? 'unknown'})`);
      return noContent;
    }],
    ['GET', ApiPaths.mfaStatus, () => ok(mfaStatus())],
    ['GET', MfaFactorPaths.strategiesConfig, () => ok({ strategies: [{ strategy: 'AuthenticatorApp', isActive: true }, { strategy: 'EmailCode', isActive: false }, { strategy: 'SMS', isActive: false }, { strategy: 'WebAuthnPlatform', isActive: false }] })],
    ['GET', ApiPaths.webauthnDevices, () => ok({ devices: passkeys })],
    ['DELETE', ApiPaths.webauthnDevice, ({ params }) => {
      const passkey = passkeys.find((p) => p.id === params.deviceId);
      if (!passkey) return fail(404, 'Passkey not found');
      passkeys = passkeys.filter((p) => p !== passkey);
      state.audit('Passkey removed', `${state.me().email} removed the passkey ${passkey.name ?? passkey.id}`);
      return noContent;
    }],
  ];
}
