/**
 * Regression tests of the security review's M1 (SMS pumping) and L5 (a pending phone sign-up's
 * profile overwritten): an unproven number must not become a lasting SMS target, every SMS counts
 * against the deployment's budget, and a second sign-up of a waiting number changes nothing on it.
 */
import { ApiPaths, PhoneErrorCodes } from '@gatehouse/shared/wire';
import { afterEach, expect, it, vi } from 'vitest';
import type { GatehouseServer } from '../../app';
import { findUserById, updateUser } from '../../db/queries/users';
import { isAppError } from '../../errors';
import { PENDING_PHONE_SIGNUP_TTL_MS } from '../../services/users/phone-signup';
import { createRateLimiter } from '../../services/platform/rate-limit';
import { createSmsSender } from '../../services/messaging/sms';
import { call, describeDialects, mailbox, movableClock, signUpAndActivate } from '../../test/harness';
import { claimsOf } from '../../test/mfa-helpers';

const pre = ApiPaths.passwordlessPreLogin.replace('{type}', 'smscode');
const post = ApiPaths.passwordlessPostLogin.replace('{type}', 'smscode');
const PHONE_ONLY = { SIGNUP_EMAIL: 'off', SIGNUP_PHONE_NUMBER: 'required', LOGIN_STRATEGY: 'SmsCodeV2' };
/** Only the limits under test bind: the per-IP and per-identifier ones are out of the way. */
const ROOMY = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_PASSWORDLESS_PER_IP: '1000/600', RATE_LIMIT_PASSWORDLESS_PER_IDENTIFIER: '1000/3600', RATE_LIMIT_SMS_CODES_PER_NUMBER: '1000/3600' };

const newPhone = () => `+447${String(Math.floor(10_000_000 + Math.random() * 89_999_999))}`;

async function smsTo(server: GatehouseServer, e164: string) {
  await server.smsLogin.idle();
  return (await mailbox(server)).filter((m) => m.channel === 'sms' && m.to === e164);
}

/** Asks for `times` sign-in codes for the number; each answer is the same 200 whatever happens behind it. */
/** The budget is one counter per database, shared by every test of this file: start it afresh. */
const freshBudget = (server: GatehouseServer) => server.db.deleteFrom('rate_limits').where('key', 'like', 'smsGlobal:%').execute();

async function askCodes(server: GatehouseServer, phoneNumber: string, times: number): Promise<void> {
  for (let i = 0; i < times; i += 1) expect((await call(server, 'POST', pre, { body: { phoneNumber } })).status).toBe(200);
  await server.smsLogin.idle();
}

describeDialects('SMS pumping and pending phone sign-ups (security review M1, L5)', (h) => {
  afterEach(() => vi.restoreAllMocks());

  it('M1a: a waiting phone sign-up receives at most RATE_LIMIT_PHONE_SIGNUP_CODES codes (default 5), also when asked in parallel', async () => {
    const server = await h.start({ ...PHONE_ONLY, ...ROOMY });
    expect(server.config.rateLimits.phoneSignUpCodes).toEqual({ limit: 5, windowSeconds: 86400 });
    const phone = newPhone();
    expect((await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: phone } })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 8 }, () => call(server, 'POST', pre, { body: { phoneNumber: phone } })));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(await smsTo(server, phone)).toHaveLength(5);
  });

  it('M1a: SMS sign-in codes (phone sign-ups and verified numbers) count against RATE_LIMIT_SMS_CODES_PER_NUMBER', async () => {
    const server = await h.start({ ...PHONE_ONLY, ...ROOMY, RATE_LIMIT_SMS_CODES_PER_NUMBER: '2/3600' });
    const pending = newPhone();
    await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: pending } });
    await askCodes(server, pending, 4);
    expect(await smsTo(server, pending)).toHaveLength(2);

    const user = await signUpAndActivate(await h.start(ROOMY));
    const verified = newPhone();
    await updateUser(server.db, user.userId, { phone_number: verified, phone_verified: 1 });
    await askCodes(server, verified, 4);
    expect(await smsTo(server, verified)).toHaveLength(2);
  });

  it('M1a: a phone sign-up not proven within 24 h expires: no more codes, and a new sign-up of the number starts afresh', async () => {
    const clock = movableClock();
    const server = await h.start({ ...PHONE_ONLY, ...ROOMY }, { clock });
    const phone = newPhone();
    const first = await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: phone, name: 'Stale Squatter' } });
    await askCodes(server, phone, 1);
    clock.advance(PENDING_PHONE_SIGNUP_TTL_MS + 1000);
    await askCodes(server, phone, 1);
    expect(await smsTo(server, phone)).toHaveLength(1);

    const fresh = await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: phone, name: 'Real Owner' } });
    expect(fresh.status).toBe(200);
    expect(await findUserById(server.db, fresh.body.userId)).toMatchObject({ name: 'Real Owner', phone_number: phone, verified: 0 });
    await askCodes(server, phone, 1);
    const code = /\b(\d{6})\b/.exec((await smsTo(server, phone))[0]!.text)![1]!;
    const signedIn = await call(server, 'POST', post, { body: { phoneNumber: phone, code } });
    expect(signedIn.status).toBe(200);
    expect(claimsOf(signedIn.body.accessToken)).toMatchObject({ sub: fresh.body.userId, name: 'Real Owner' });
    // The expired sign-up was never activated.
    expect(await findUserById(server.db, first.body.userId)).toMatchObject({ verified: 0, phone_verified: 0 });
  });

  it('M1b: the SMS budget (RATE_LIMIT_SMS_GLOBAL) caps every number together, fails closed, and logs neither number nor code', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = await h.start({ ...PHONE_ONLY, ...ROOMY, RATE_LIMIT_SMS_GLOBAL: '3/3600' });
    await freshBudget(server);
    const phones = [newPhone(), newPhone(), newPhone(), newPhone(), newPhone()];
    for (const phone of phones) await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: phone } });
    for (const phone of phones) await askCodes(server, phone, 1);
    const sent = (await mailbox(server)).filter((m) => m.channel === 'sms' && phones.includes(m.to));
    expect(sent).toHaveLength(3);
    const text = logged.mock.calls.flat().join(' ');
    expect(text).toContain('SMS budget exhausted');
    // One line a minute, not one per refused SMS.
    expect(text.match(/SMS budget exhausted/g)).toHaveLength(1);
    for (const phone of phones) expect(text).not.toContain(phone.slice(3));
    for (const m of sent) expect(text).not.toContain(/\b(\d{6})\b/.exec(m.text)![1]!);
  });

  it('M1b: a flow that texts within the request (MFA, phone verification) gets 503 smsBudgetExhausted once the budget is spent', async () => {
    const server = await h.start({ ...ROOMY, RATE_LIMIT_SMS_GLOBAL: '1/3600' });
    await freshBudget(server);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // The sender every flow texts through (routes/messaging/index.ts builds it the same way).
    const clock = { now: () => Date.now() };
    const sender = createSmsSender({ db: server.db, clock, limiter: createRateLimiter({ db: server.db, clock, config: server.config }), config: server.config });
    await sender.send({ to: newPhone(), body: 'first' });
    const refused = await sender.send({ to: newPhone(), body: 'second' }).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.status === 503 && refused.code === PhoneErrorCodes.smsBudgetExhausted).toBe(true);
    expect((await mailbox(server)).filter((m) => m.text === 'second')).toHaveLength(0);
  });

  it('L5: a second phone sign-up of a waiting number does not overwrite its name, metadata or account name', async () => {
    const server = await h.start({ ...PHONE_ONLY, ...ROOMY });
    const phone = newPhone();
    const victim = await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: phone, name: 'Real Owner', companyName: 'Owner Co', metadata: '{"plan":"free"}' } });
    const attacker = await call(server, 'POST', ApiPaths.signUpPhoneNumber, { body: { phoneNumber: phone, name: 'Attacker', companyName: 'Evil Corp', metadata: '{"plan":"pwned"}' } });
    expect([victim.status, attacker.status]).toEqual([200, 200]);
    expect(attacker.body.userId).not.toBe(victim.body.userId);

    await askCodes(server, phone, 1);
    const code = /\b(\d{6})\b/.exec((await smsTo(server, phone))[0]!.text)![1]!;
    const signedIn = await call(server, 'POST', post, { body: { phoneNumber: phone, code } });
    expect(claimsOf(signedIn.body.accessToken).sub).toBe(victim.body.userId);
    const me = await call(server, 'GET', ApiPaths.me, { token: signedIn.body.accessToken });
    expect(me.body).toMatchObject({ name: 'Real Owner' });
    expect(me.body.tenants.map((t: { name: string }) => t.name)).toEqual(['Owner Co']);
    expect((await findUserById(server.db, victim.body.userId))?.metadata).toBe('{"plan":"free"}');
  });
});
