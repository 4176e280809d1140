/**
 * The Privacy section's calls (seed 001 section 7 "Sessions", seed 000 section 7.3 MFA and passkeys):
 * the signed-in user's own sessions, second factors and passkeys.
 */
import { MfaFactorPaths, SessionPaths } from '@gatehouse/shared/admin-paths';
import type { MfaStatusResponse, MfaStrategiesConfigResponse, PasskeyDevicesResponse, RevokeSessionsResponse, UserSession } from '@gatehouse/shared/wire';
import { ApiPaths, type GatehouseApi } from '../../contract';

const withId = (template: string, name: string, value: string) => template.replace(`{${name}}`, encodeURIComponent(value));

export function createPrivacyApi(api: GatehouseApi) {
  return {
    sessions: () => api.request<UserSession[]>('GET', SessionPaths.mySessions),
    revokeSession: (sessionId: string) => api.request<void>('DELETE', withId(SessionPaths.mySession, 'sessionId', sessionId)),
    revokeOtherSessions: () => api.request<RevokeSessionsResponse>('DELETE', SessionPaths.myOtherSessions),
    mfaStatus: () => api.request<MfaStatusResponse>('GET', ApiPaths.mfaStatus),
    /** Needs a recent sign-in, and an authenticator code or a recovery code. */
    removeMfaDevice: (deviceId: string, code: string) => api.request<void>('POST', withId(ApiPaths.mfaDeviceDisable, 'deviceId', deviceId), { body: { code } }),
    /** Which second factors the MFA policy has on (what may be added). */
    mfaStrategies: () => api.request<MfaStrategiesConfigResponse>('GET', MfaFactorPaths.strategiesConfig),
    passkeys: () => api.request<PasskeyDevicesResponse>('GET', ApiPaths.webauthnDevices),
    removePasskey: (deviceId: string) => api.request<void>('DELETE', withId(ApiPaths.webauthnDevice, 'deviceId', deviceId)),
  };
}

export type PrivacyApi = ReturnType<typeof createPrivacyApi>;
