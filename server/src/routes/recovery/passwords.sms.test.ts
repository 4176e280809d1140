import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { call, describeDialects, mailbox, movableClock, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';

const NEW_PASSWORD = 'a brand new passphrase';
const PHONE = '+44 20 7946 0958';

/** Signs up, activates and sets a phone number on the profile. */
async function userWithPhone(server: GatehouseServer, phoneNumber = PHONE) {
  const user = await signUpAndActivate(server);
  const updated = await call(server, 'PUT', ApiPaths.me, { token: user.accessToken, body: { phoneNumber } });
  expect(updated.status).toBe(200);
  return user;
}

const requestSms = (server: GatehouseServer, identifier: string, identifierType = 'email') =>
  call<{ sessionId: string }>(server, 'POST', ApiPaths.passwordsResetSmsV2, { body: { identifier, identifierType } });
const verifySms = (server: GatehouseServer, sessionId: string, otcToken: string) => call(server, 'POST', ApiPaths.passwordsResetSmsVerifyV2, { body: { sessionId, otcToken } });

/** The code of the newest SMS to `phone` in the dev outbox, after the background delivery finished. */
async function smsCodeFor(server: GatehouseServer, phone = PHONE): Promise<string> {
  await server.recovery.idle();
  const sms = (await mailbox(server)).find((m) => m.channel === 'sms' && m.to === phone);
  if (!sms) throw new Error(`no SMS to ${phone}`);
  expect(sms.html).toBeNull();
  return /\b(\d{6})\b/.exec(sms.text)![1]!;
}

const INVALID_CODE = { errors: ['The code is invalid or has expired'], errorCode: ErrorCodes.invalidResetCode };

describeDialects('password reset by SMS', (h) => {
  const start: typeof h.start = (env = {}, overrides) =>
    h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_PASSWORD_RESET_PER_IP: '1000/3600', RATE_LIMIT_PASSWORD_RESET_PER_IDENTIFIER: '1000/3600', ...env }, overrides);

  it('texts a code (dev outbox, channel sms); the code yields a reset token that sets the password', async () => {
    const server = await start();
    const user = await userWithPhone(server);
    const requested = await requestSms(server, user.email);
    expect(requested.status).toBe(200);
    const code = await smsCodeFor(server);
    // Existing mail keeps its fields and says it is email.
    const activation = (await mailbox(server)).find((m) => m.to === user.email)!;
    expect(activation).toMatchObject({ channel: 'email', subject: expect.stringMatching(/activate/i) });
    expect(typeof activation.html).toBe('string');

    const verified = await verifySms(server, requested.body.sessionId, code);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ userId: user.userId, token: expect.any(String) });
    // Single use.
    expect((await verifySms(server, requested.body.sessionId, code)).body).toEqual(INVALID_CODE);

    const reset = await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { ...verified.body, password: NEW_PASSWORD } });
    expect(reset.status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie, body: {} })).status).toBe(401);
    expect((await call(server, 'POST', ApiPaths.login, { body: { email: user.email, password: NEW_PASSWORD } })).status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.login, { body: { email: user.email, password: PASSWORD } })).status).toBe(401);
  });

  it('finds the account by phone number too', async () => {
    const server = await start();
    const phone = `+1 555 ${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
    const user = await userWithPhone(server, phone);
    const requested = await requestSms(server, phone, 'phoneNumber');
    const verified = await verifySms(server, requested.body.sessionId, await smsCodeFor(server, phone));
    expect(verified.body.userId).toBe(user.userId);
  });

  it('allows 5 attempts per code, expires codes, and answers made-up sessions the same way', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const user = await userWithPhone(server);

    const first = await requestSms(server, user.email);
    const code = await smsCodeFor(server);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) expect((await verifySms(server, first.body.sessionId, wrong)).body).toEqual(INVALID_CODE);
    // Out of attempts: even the right code is refused now.
    expect((await verifySms(server, first.body.sessionId, code)).body).toEqual(INVALID_CODE);

    clock.advance(1000);
    const second = await requestSms(server, user.email);
    const secondCode = await smsCodeFor(server);
    clock.advance(300 * 1000); // RESET_PASSWORD_SMS_CODE_TTL default
    expect((await verifySms(server, second.body.sessionId, secondCode)).body).toEqual(INVALID_CODE);

    const third = await requestSms(server, user.email);
    const thirdCode = await smsCodeFor(server);
    clock.advance(1000); // the outbox orders by time
    const fourth = await requestSms(server, user.email);
    const fourthCode = await smsCodeFor(server);
    // A newer request ends the older session.
    expect((await verifySms(server, third.body.sessionId, thirdCode)).body).toEqual(INVALID_CODE);
    expect((await verifySms(server, 'made-up-session', fourthCode)).body).toEqual(INVALID_CODE);
    expect((await verifySms(server, fourth.body.sessionId, fourthCode)).status).toBe(200);
    expect((await verifySms(server, fourth.body.sessionId, 'abc')).status).toBe(400);
  });

  it('answers the same for unknown identifiers and users without a phone, and texts nobody', async () => {
    const server = await start();
    const noPhone = await signUpAndActivate(server);
    const before = (await mailbox(server)).filter((m) => m.channel === 'sms').length;
    for (const identifier of [noPhone.email, uniqueEmail('nobody')]) {
      const res = await requestSms(server, identifier);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['sessionId']);
      expect(res.body.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await verifySms(server, res.body.sessionId, '123456')).body).toEqual(INVALID_CODE);
    }
    await server.recovery.idle();
    expect((await mailbox(server)).filter((m) => m.channel === 'sms').length).toBe(before);
  });
  it('SMS reset runs when SMS recovery is off: refused with the same answer, nothing looked up or sent', async () => {
    // Users are created with dev mode (mailbox), then the same database is served without it and without a provider.
    const dev = await start();
    const user = await userWithPhone(dev);
    const smsCount = async (db: GatehouseServer['db']) => (await db.selectFrom('outbox').select('id').where('channel', '=', 'sms').execute()).length;
    const before = await smsCount(dev.db);
    await dev.close();
    const server = await start({ GATEHOUSE_DEV: '0' });
    const strategies = await call(server, 'GET', ApiPaths.passwordRecoveryStrategies);
    expect(strategies.body.strategies).toContainEqual({ strategy: 'sms', isActive: false });
    for (const [identifier, type] of [[user.email, 'email'], [PHONE, 'phoneNumber'], [uniqueEmail('nobody'), 'email']] as const) {
      const res = await requestSms(server, identifier, type);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['sessionId']);
      expect(res.body.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    await server.recovery.idle();
    expect(await smsCount(server.db)).toBe(before);
    const sessions = await server.db.selectFrom('sms_reset_sessions').select('user_id').where('user_id', '=', user.userId).execute();
    expect(sessions).toEqual([]);
  });
});
