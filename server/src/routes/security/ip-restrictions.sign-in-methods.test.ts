/**
 * IP restrictions at the sign-in methods that do not take a password: SMS code, passkey and social
 * login. Each reaches a session the same way as a password sign-in, so each is refused (403
 * ER-IP-RESTRICTED, no refresh cookie) from a network the user's tenant keeps out, and let in from
 * an allowed one. The server trusts X-Forwarded-For here.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiPaths, SecurityErrorCodes, SecurityPaths, SocialLoginPaths } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { updateUser } from '../../db/queries/users';
import { call, describeDialects, mailbox, signUpAndActivate } from '../../test/harness';
import { IDP_CLIENT_ID, IDP_CLIENT_SECRET, signInAt, startTestIdp, type TestIdp } from '../../test/social-idp';
import { SoftAuthenticator } from '../../test/soft-authenticator';
import { socialLoginCookieName } from '../social/login';

const GOOD = '203.0.113.10';
const BAD = '198.51.100.66';
const from = (ip: string) => ({ 'x-forwarded-for': ip });
const CALLBACK = 'http://localhost:8787/account/social/success';

let idp: TestIdp;
beforeAll(async () => {
  idp = await startTestIdp({ redirectUris: [CALLBACK] });
});
afterAll(async () => {
  await idp?.stop();
});

function expectRefused(res: { status: number; body: any; refreshCookie?: string }, what: string): void {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(403);
  expect(res.body.errorCode, what).toBe(SecurityErrorCodes.ipRestricted);
  expect(res.refreshCookie, what).toBeFalsy();
}

/** A signed-up user whose own tenant lets only 203.0.113.0/24 in. */
async function restrictedUser(server: GatehouseServer) {
  const user = await signUpAndActivate(server);
  const admin = (path: string, body: unknown) => call(server, 'POST', path, { token: user.accessToken, body, headers: from(GOOD) });
  expect((await admin(SecurityPaths.ipRestrictions, { ip: '203.0.113.0/24', strategy: 'ALLOW' })).status).toBe(201);
  expect((await admin(SecurityPaths.ipRestrictionsConfig, { isActive: true, strategy: 'ALLOW' })).status).toBe(200);
  return user;
}

describeDialects('IP restrictions at SMS, passkey and social sign-in', (h) => {
  const limits = {
    TRUST_PROXY: 'true',
    RATE_LIMIT_SIGNUP_PER_IP: '1000/3600',
    RATE_LIMIT_LOGIN_PER_IP: '1000/600',
    RATE_LIMIT_PASSWORDLESS_PER_IP: '1000/600',
    RATE_LIMIT_PASSWORDLESS_PER_IDENTIFIER: '1000/3600',
    RATE_LIMIT_SOCIAL_LOGIN_PER_IP: '1000/600',
  };

  it('SMS code sign-in', async () => {
    const server = await h.start({ ...limits, LOGIN_STRATEGY: 'SmsCodeV2' });
    const user = await restrictedUser(server);
    const phone = `+447${String(Math.floor(10_000_000 + Math.random() * 89_999_999))}`;
    await updateUser(server.db, user.userId, { phone_number: phone, phone_verified: 1 });
    const codeTexted = async () => {
      expect((await call(server, 'POST', ApiPaths.passwordlessPreLogin.replace('{type}', 'smscode'), { body: { phoneNumber: phone }, headers: from(GOOD) })).status).toBe(200);
      await server.smsLogin.idle();
      const sms = (await mailbox(server)).find((m) => m.channel === 'sms' && m.to === phone);
      return /\b(\d{6})\b/.exec(sms?.text ?? '')![1]!;
    };
    const post = ApiPaths.passwordlessPostLogin.replace('{type}', 'smscode');
    expectRefused(await call(server, 'POST', post, { body: { phoneNumber: phone, code: await codeTexted() }, headers: from(BAD) }), 'SMS code');
    expect((await call(server, 'POST', post, { body: { phoneNumber: phone, code: await codeTexted() }, headers: from(GOOD) })).status).toBe(200);
  });

  it('passkey sign-in', async () => {
    const server = await h.start(limits);
    const user = await restrictedUser(server);
    const authenticator = new SoftAuthenticator();
    const options = await call(server, 'POST', ApiPaths.webauthnDevices, { token: user.accessToken, headers: from(GOOD) });
    const registered = await call(server, 'POST', ApiPaths.webauthnDevicesVerify, { token: user.accessToken, body: { credential: authenticator.create(options.body.options), name: 'Laptop' }, headers: from(GOOD) });
    expect(registered.status).toBe(201);
    const passkeyFrom = async (ip: string) => {
      const pre = await call(server, 'POST', ApiPaths.webauthnPreLogin, { body: {}, headers: from(ip) });
      return call(server, 'POST', ApiPaths.webauthnPostLogin, { body: { credential: authenticator.get(pre.body.options) }, headers: from(ip) });
    };
    expectRefused(await passkeyFrom(BAD), 'passkey');
    expect((await passkeyFrom(GOOD)).status).toBe(200);
  });

  it('social login of an existing account', async () => {
    const providers = JSON.stringify({ custom: [{ id: 'acme', displayName: 'Acme ID', issuer: idp.issuer, clientId: IDP_CLIENT_ID, clientSecret: IDP_CLIENT_SECRET }] });
    const server = await h.start({ ...limits, SOCIAL_LOGIN_PROVIDERS: providers });
    const user = await restrictedUser(server);
    const socialFrom = async (ip: string) => {
      const started = await call(server, 'POST', SocialLoginPaths.preLogin.replace('{provider}', 'acme'), { body: { redirectUri: CALLBACK }, headers: from(ip) });
      expect(started.status).toBe(200);
      const name = socialLoginCookieName(server.config.clientId);
      const binding = new RegExp(`${name}=([^;]+)`).exec(started.setCookie ?? '')![1]!;
      const callback = await signInAt(String(started.body.url), user.email);
      const body = { code: callback.searchParams.get('code'), state: callback.searchParams.get('state'), iss: callback.searchParams.get('iss') ?? undefined, redirectUri: CALLBACK };
      return call(server, 'POST', SocialLoginPaths.postLogin.replace('{provider}', 'acme'), { body, headers: { cookie: `${name}=${binding}`, ...from(ip) } });
    };
    expectRefused(await socialFrom(BAD), 'social login');
    const ok = await socialFrom(GOOD);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.userId ?? ok.body.accessToken).toBeTruthy();
  });
});
