import { expect, it } from 'vitest';
import { createApiClient } from '../api/client';
import { ApiPaths } from '../wire/paths';
import { SessionPaths } from '../wire/users/session-paths';
import { MfaFactorPaths } from '../wire/mfa/paths';
import { RevokeSessionsResponse, UserSessionsResponse } from '../wire/users/sessions';
import { MfaStatusResponse } from '../wire/mfa/mfa';
import { MfaStrategiesConfigResponse } from '../wire/mfa/factors';
import { PasskeyDevicesResponse } from '../wire/passwordless/webauthn';
import { AuditPaths } from '../wire/admin/audit-paths';
import { AuditsResponse } from '../wire/admin/audits';
import { isGatehouseError } from '../errors';
import { createPreviewFetch } from './preview-api';

const BASE = 'https://auth.example.test/api';

function setup(signedIn = true) {
  const fetch = createPreviewFetch({ baseUrl: BASE, signedIn, sleep: async () => {} });
  const api = createApiClient({ baseUrl: BASE, clientId: 'preview', getAccessToken: () => 'preview-access-token', fetch, retry: { attempts: 1 } });
  const lastAudit = async () => AuditsResponse.parse(await api.request('GET', AuditPaths.audits)).data[0];
  return { api, lastAudit };
}

it("lists the preview user's sessions, signs one out and then the others, each audited", async () => {
  const { api, lastAudit } = setup();
  const sessions = UserSessionsResponse.parse(await api.request('GET', SessionPaths.mySessions));
  expect(sessions.map((s) => [s.device.os, s.current])).toEqual([['macOS', true], ['iOS', false]]);
  await api.request('DELETE', SessionPaths.mySession.replace('{sessionId}', 'preview-session-2'));
  expect(await lastAudit()).toMatchObject({ action: 'Session signed out', description: 'ada@preview.example signed out the session on Safari (iOS)' });
  expect(UserSessionsResponse.parse(await api.request('GET', SessionPaths.mySessions))).toHaveLength(1);
  expect(RevokeSessionsResponse.parse(await api.request('DELETE', SessionPaths.myOtherSessions))).toEqual({ revoked: 0 });
  const error = await api.request('DELETE', SessionPaths.mySession.replace('{sessionId}', 'preview-session-2')).then(() => null, (e: unknown) => e);
  expect(isGatehouseError(error) && error.statusCode).toBe(404);
});

it("answers the second factors (Ada's authenticator; a signed-up visitor's none) and the passkeys, and simulates removing a passkey", async () => {
  const { api, lastAudit } = setup();
  const status = MfaStatusResponse.parse(await api.request('GET', ApiPaths.mfaStatus));
  expect([status.enrolled, status.devices.authenticators.length]).toEqual([true, 1]);
  const { strategies } = MfaStrategiesConfigResponse.parse(await api.request('GET', MfaFactorPaths.strategiesConfig));
  expect(strategies.filter((s) => s.isActive).map((s) => s.strategy)).toEqual(['AuthenticatorApp']);
  const { devices } = PasskeyDevicesResponse.parse(await api.request('GET', ApiPaths.webauthnDevices));
  await api.request('DELETE', ApiPaths.webauthnDevice.replace('{deviceId}', devices[0]!.id));
  expect(PasskeyDevicesResponse.parse(await api.request('GET', ApiPaths.webauthnDevices)).devices).toEqual([]);
  expect(await lastAudit()).toMatchObject({ action: 'Passkey removed', description: 'ada@preview.example removed the passkey MacBook Touch ID' });

  const visitor = setup(false).api;
  await visitor.signUp({ email: 'new@example.com', password: '123456', name: 'New' });
  const fresh = MfaStatusResponse.parse(await visitor.request('GET', ApiPaths.mfaStatus));
  expect([fresh.enrolled, fresh.devices.authenticators]).toEqual([false, []]);
});
