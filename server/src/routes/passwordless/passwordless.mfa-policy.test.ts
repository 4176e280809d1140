/**
 * The tenant's MFA policy at passwordless sign-in (issue 12): a magic link, an emailed code and a
 * texted code each stop at the MFA step once the user's tenant forces MFA, and not in other tenants.
 */
import { ApiPaths, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { updateUser } from '../../db/queries/users';
import { callAs } from '../../test/admin-helpers';
import { call, describeDialects, mailbox, signUpAndActivate } from '../../test/harness';

const pre = (type: string) => ApiPaths.passwordlessPreLogin.replace('{type}', type);
const post = (type: string) => ApiPaths.passwordlessPostLogin.replace('{type}', type);
const LIMITS = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_PASSWORDLESS_PER_IP: '1000/600', RATE_LIMIT_PASSWORDLESS_PER_IDENTIFIER: '1000/3600' };

/** The newest message to `to` (email or SMS) after background deliveries finished. */
async function newest(server: GatehouseServer, to: string) {
  await server.passwordless.idle();
  await server.smsLogin.idle();
  return (await mailbox(server)).find((m) => m.to === to)!;
}

/** Two signed-up users in tenants of their own; the first tenant forces MFA. */
async function forcedAndFree(server: GatehouseServer) {
  const [forced, free] = [await signUpAndActivate(server), await signUpAndActivate(server)];
  expect((await callAs(server, forced, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType: 'Force' } })).status).toBe(200);
  return { forced, free };
}

const expectMfaStep = (res: { status: number; body: any }) => {
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ mfaRequired: true, mfaEnrolled: false, accessToken: '' });
};
const expectSignedIn = (res: { status: number; body: any }) => {
  expect(res.status).toBe(200);
  expect(res.body.mfaRequired).toBe(false);
  expect(res.body.accessToken).not.toBe('');
};

describeDialects('MFA policy at passwordless sign-in', (h) => {
  it('a magic link stops at the MFA step in the forcing tenant and signs in elsewhere', async () => {
    const server = await h.start({ ...LIMITS, LOGIN_STRATEGY: 'MagicLink' });
    const { forced, free } = await forcedAndFree(server);
    const signInWith = async (email: string) => {
      await call(server, 'POST', pre('magiclink'), { body: { email } });
      const token = new URL(/https?:\/\/\S+\/account\/login\/magic-link\?\S+/.exec((await newest(server, email)).text)![0]).searchParams.get('token');
      return call(server, 'POST', post('magiclink'), { body: { token } });
    };
    expectMfaStep(await signInWith(forced.email));
    expectSignedIn(await signInWith(free.email));
  });

  it('an emailed code stops at the MFA step in the forcing tenant and signs in elsewhere', async () => {
    const server = await h.start({ ...LIMITS, LOGIN_STRATEGY: 'Code' });
    const { forced, free } = await forcedAndFree(server);
    const signInWith = async (email: string) => {
      await call(server, 'POST', pre('code'), { body: { email } });
      const code = /\b(\d{6})\b/.exec((await newest(server, email)).text)![1];
      return call(server, 'POST', post('code'), { body: { email, code } });
    };
    expectMfaStep(await signInWith(forced.email));
    expectSignedIn(await signInWith(free.email));
  });

  it('an SMS sign-in code stops at the MFA step in the forcing tenant and signs in elsewhere', async () => {
    const server = await h.start({ ...LIMITS, LOGIN_STRATEGY: 'SmsCodeV2' });
    const { forced, free } = await forcedAndFree(server);
    const phones = new Map<string, string>();
    for (const user of [forced, free]) {
      const phone = `+447${String(Math.floor(10_000_000 + Math.random() * 89_999_999))}`;
      await updateUser(server.db, user.userId, { phone_number: phone, phone_verified: 1 });
      phones.set(user.userId, phone);
    }
    const signInWith = async (userId: string) => {
      const phoneNumber = phones.get(userId)!;
      await call(server, 'POST', pre('smscode'), { body: { phoneNumber } });
      const code = /\b(\d{6})\b/.exec((await newest(server, phoneNumber)).text)![1];
      return call(server, 'POST', post('smscode'), { body: { phoneNumber, code } });
    };
    expectMfaStep(await signInWith(forced.userId));
    expectSignedIn(await signInWith(free.userId));
  });
});
