/** The tenant's MFA policy at social login (issue 12): a social sign-in into a tenant that forces MFA stops at the MFA step. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SecurityPaths, SocialLoginPaths } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { callAs } from '../../test/admin-helpers';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';
import { IDP_CLIENT_ID, IDP_CLIENT_SECRET, signInAt, startTestIdp, type TestIdp } from '../../test/social-idp';
import { socialLoginCookieName } from './login';

const CALLBACK = 'http://localhost:8787/account/social/success';
let idp: TestIdp;
beforeAll(async () => {
  idp = await startTestIdp({ redirectUris: [CALLBACK] });
});
afterAll(async () => {
  await idp?.stop();
});

/** The login box's social sign-in as `login` at the test provider: prelogin, the provider's pages, postlogin. */
async function socialSignIn(server: GatehouseServer, login: string) {
  const started = await call(server, 'POST', SocialLoginPaths.preLogin.replace('{provider}', 'acme'), { body: { redirectUri: CALLBACK } });
  const name = socialLoginCookieName(server.config.clientId);
  const binding = new RegExp(`${name}=([^;]+)`).exec(started.setCookie ?? '')![1];
  const callback = await signInAt(started.body.url as string, login);
  const body = { code: callback.searchParams.get('code'), state: callback.searchParams.get('state'), iss: callback.searchParams.get('iss') ?? undefined, redirectUri: CALLBACK };
  return call(server, 'POST', SocialLoginPaths.postLogin.replace('{provider}', 'acme'), { body, headers: { cookie: `${name}=${binding}` } });
}

describeDialects('MFA policy at social login', (h) => {
  it('a social sign-in stops at the MFA step in a tenant that forces MFA, and signs in elsewhere', async () => {
    const providers = JSON.stringify({ custom: [{ id: 'acme', displayName: 'Acme ID', issuer: idp.issuer, clientId: IDP_CLIENT_ID, clientSecret: IDP_CLIENT_SECRET }] });
    const server = await h.start({ SOCIAL_LOGIN_PROVIDERS: providers, RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_SOCIAL_LOGIN_PER_IP: '1000/600' });
    const [forced, free] = [await signUpAndActivate(server), await signUpAndActivate(server)];
    expect((await callAs(server, forced, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType: 'Force' } })).status).toBe(200);

    const asked = await socialSignIn(server, forced.email);
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ mfaRequired: true, accessToken: '' });
    expect(asked.refreshCookie).toBeUndefined();
    const signedIn = await socialSignIn(server, free.email);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.mfaRequired).toBe(false);
    expect(signedIn.body.accessToken).not.toBe('');
  });
});
