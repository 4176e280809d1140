/** Helpers of the MFA route tests: a step-aligned clock, token claims, an enrolled user, a sign-in call. */
import { expect } from 'vitest';
import { ApiPaths } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../app';
import { call, movableClock, PASSWORD, signUpAndActivate } from './harness';
import { appCode } from './rfc6238';

/** A clock 5 s into a TOTP step, so ±1 step arithmetic is unambiguous. */
export function stepClock() {
  const now = Date.now();
  return movableClock(now - (now % 30_000) + 5_000);
}

export function claimsOf(jwt: string): Record<string, any> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8'));
}

/** Signs up, activates and enrols an authenticator through the users API; returns the secret and recovery codes. */
export async function enrolledUser(server: GatehouseServer, now: () => number) {
  const user = await signUpAndActivate(server);
  const enroll = await call(server, 'POST', ApiPaths.mfaAuthenticatorEnroll, { token: user.accessToken });
  expect(enroll.status).toBe(200);
  const secret = enroll.body.secret as string;
  const verify = await call(server, 'POST', ApiPaths.mfaAuthenticatorEnrollVerify, { token: user.accessToken, body: { token: appCode(secret, now()) } });
  expect(verify.status).toBe(200);
  return { ...user, secret, recoveryCodes: verify.body.recoveryCodes as string[] };
}

export const login = (server: GatehouseServer, email: string, headers: Record<string, string> = {}) => call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD }, headers });

