/**
 * Reset phone number (ResetPhoneNumber -> VerifyResetPhoneNumber -> ChangePhoneNumber) and the
 * signed-in phone change over HTTP, both dialects. Codes are read from the real dev outbox.
 */
import { expect, it } from 'vitest';
import { ApiPaths, ErrorCodes, MfaFactorPaths, PhoneErrorCodes } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { MFA_TOKEN_TTL_MS } from '../../services/mfa/factors';
import { NEEDS_PASSWORD_MESSAGE, STALE_SIGN_IN_MESSAGE } from '../../services/recovery/phone-change';
import { call, describeDialects, mailbox, movableClock, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { inbox, otherThan, smsEnrolledUser, uniquePhone, type Inbox } from '../../test/mfa-factor-helpers';
import { login, stepClock } from '../../test/mfa-helpers';
import { appCode } from '../../test/rfc6238';

const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_PHONE_RESET_PER_IP: '1000/3600', RATE_LIMIT_PHONE_VERIFY_PER_IP: '1000/600', RATE_LIMIT_SMS_CODES_PER_USER: '100/900' };
const RESET_SUBJECT = /^Reset your .+ phone number$/;
const INVALID_CODE = { errors: ['The code is invalid or has expired'], errorCode: ErrorCodes.invalidPhoneCode };
const NEEDS_PASSWORD = { errors: [NEEDS_PASSWORD_MESSAGE], errorCode: PhoneErrorCodes.phoneResetNeedsPassword };
const STALE_SIGN_IN = { errors: [STALE_SIGN_IN_MESSAGE], errorCode: ErrorCodes.invalidMfaToken };

const requestReset = (server: GatehouseServer, email: string, headers: Record<string, string> = {}) => call(server, 'POST', MfaFactorPaths.phoneReset, { body: { email }, headers });
const verifyReset = (server: GatehouseServer, resetPhoneNumberToken: string, code: string, headers: Record<string, string> = {}, mfaToken?: string) =>
  call(server, 'POST', MfaFactorPaths.phoneResetVerify, { body: { resetPhoneNumberToken, code, ...(mfaToken ? { mfaToken } : {}) }, headers });
const change = (server: GatehouseServer, changePhoneNumberToken: string, phoneNumber: string) => call(server, 'PUT', MfaFactorPaths.phoneChange, { body: { changePhoneNumberToken, phoneNumber } });
const verifyPhone = (server: GatehouseServer, changePhoneId: string, code: string) => call(server, 'POST', MfaFactorPaths.phoneVerify, { body: { changePhoneId, code } });

/** ResetPhoneNumber and VerifyResetPhoneNumber for `email` (with the pending sign-in's `mfaToken`): the token that may set a new number. */
async function verifiedReset(server: GatehouseServer, box: Inbox, email: string, mfaToken?: string): Promise<string> {
  const requested = await requestReset(server, email);
  expect(requested.status).toBe(200);
  const verified = await verifyReset(server, requested.body.resetPhoneNumberToken, (await box.next(email, 'email', RESET_SUBJECT)).code, {}, mfaToken);
  expect(verified.status).toBe(200);
  return verified.body.changePhoneNumberToken as string;
}

/** The mfaToken of a password sign-in waiting for its second factor ("Lost your phone?" starts from it). */
async function pendingSignIn(server: GatehouseServer, email: string): Promise<string> {
  const pending = await login(server, email);
  expect(pending.body.mfaRequired).toBe(true);
  return pending.body.mfaToken as string;
}

/** The phones a password sign-in of `email` would text (masked), i.e. the SMS factor the account has now. */
async function smsFactorPhones(server: GatehouseServer, email: string): Promise<string[]> {
  const pending = await login(server, email);
  return (pending.body.mfaDevices.phones as { phoneNumber: string }[]).map((p) => p.phoneNumber);
}

const masked = (phone: string) => new RegExp(`^\\+\\d{2}•+${phone.slice(-4)}$`);

describeDialects('reset phone number and phone change', (h) => {
  it('a lost phone after a password sign-in: the emailed code and that sign-in\'s mfaToken let the user set a new number, proven by a texted code, which replaces the number and the SMS factor', async () => {
    const server = await h.start(ROOMY);
    const box = inbox(server);
    const user = await smsEnrolledUser(server, box);
    // "Lost your phone?" on the SMS step of a password sign-in: its mfaToken goes with the emailed code.
    const mfaToken = await pendingSignIn(server, user.email);

    const requested = await requestReset(server, user.email);
    expect(requested.status).toBe(200);
    expect(Object.keys(requested.body)).toEqual(['resetPhoneNumberToken']);
    const { code, message } = await box.next(user.email, 'email', RESET_SUBJECT);
    expect(message.subject).toBe('Reset your example.com phone number');
    expect(message.text).not.toContain(requested.body.resetPhoneNumberToken);
    expect((await verifyReset(server, requested.body.resetPhoneNumberToken, otherThan(code), {}, mfaToken)).body).toEqual(INVALID_CODE);
    const verified = await verifyReset(server, requested.body.resetPhoneNumberToken, code, {}, mfaToken);
    expect(verified.status).toBe(200);
    // Single use.
    expect((await verifyReset(server, requested.body.resetPhoneNumberToken, code, {}, mfaToken)).body).toEqual(INVALID_CODE);

    const token = verified.body.changePhoneNumberToken as string;
    const invalid = await change(server, token, '12345');
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0]).toMatch(/international format/);
    const newPhone = uniquePhone();
    // A mistyped number can be corrected: the token lives until a number is proven, and only the newest request works.
    const typo = await change(server, token, uniquePhone());
    expect(typo.status).toBe(200);
    const changed = await change(server, token, newPhone);
    expect(changed.status).toBe(200);
    expect(changed.body.phoneNumber).toMatch(new RegExp(`•${newPhone.slice(-4)}$`));
    const smsCode = (await box.next(newPhone)).code;
    expect((await verifyPhone(server, typo.body.changePhoneId, smsCode)).body).toEqual(INVALID_CODE);
    expect((await verifyPhone(server, changed.body.changePhoneId, otherThan(smsCode))).body).toEqual(INVALID_CODE);
    const done = await verifyPhone(server, changed.body.changePhoneId, smsCode);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ phoneNumber: changed.body.phoneNumber });
    expect((await verifyPhone(server, changed.body.changePhoneId, smsCode)).body).toEqual(INVALID_CODE);
    // The reset is used up.
    const replay = await change(server, token, uniquePhone());
    expect(replay.status).toBe(400);
    expect(replay.body.errorCode).toBe(ErrorCodes.invalidPhoneCode);

    // The account and its SMS factor now use the new number: sign-in texts it, not the lost one.
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.phoneNumber).toBe(newPhone);
    const pending = await login(server, user.email);
    expect(pending.body.mfaDevices.phones).toEqual([expect.objectContaining({ phoneNumber: changed.body.phoneNumber })]);
    const sent = await call(server, 'POST', MfaFactorPaths.smsPreVerify, { body: { mfaToken: pending.body.mfaToken } });
    // The lost phone got only the notice of the change, no code.
    const notice = await box.next(user.phone);
    expect(notice.code).toBe('');
    expect(notice.message.text).toContain(`was changed to ${changed.body.phoneNumber}`);
    expect(await box.drain(user.phone)).toBe(0);
    const signedIn = await call(server, 'POST', MfaFactorPaths.smsVerify, { body: { mfaToken: pending.body.mfaToken, otcToken: sent.body.otcToken, code: (await box.next(newPhone)).code } });
    expect(signedIn.status).toBe(200);
    // The owner is told by email.
    expect((await box.next(user.email, 'email', /phone number was changed/)).message.text).toContain(changed.body.phoneNumber);
    // The reset only read the sign-in's mfaToken: that sign-in can still finish, now with the new phone.
    const resumed = await call(server, 'POST', MfaFactorPaths.smsPreVerify, { body: { mfaToken } });
    expect(resumed.status).toBe(200);
    const finished = await call(server, 'POST', MfaFactorPaths.smsVerify, { body: { mfaToken, otcToken: resumed.body.otcToken, code: (await box.next(newPhone)).code } });
    expect(finished.status).toBe(200);
  });

  it('regression (security review): the mailbox alone cannot replace an SMS second factor; the proven emailed code gets a clear error and the old factor stays', async () => {
    const server = await h.start(ROOMY);
    const box = inbox(server);
    const user = await smsEnrolledUser(server, box);
    const phoneBefore = (await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.phoneNumber;

    // The email step still answers the same as for an unknown address.
    const requested = await requestReset(server, user.email);
    const unknown = await requestReset(server, uniqueEmail('nobody'));
    expect([requested.status, unknown.status]).toEqual([200, 200]);
    expect(Object.keys(requested.body)).toEqual(Object.keys(unknown.body));
    const { code } = await box.next(user.email, 'email', RESET_SUBJECT);
    // Before the mailbox is proven, a wrong code gets the one answer every request gets.
    expect((await verifyReset(server, requested.body.resetPhoneNumberToken, otherThan(code))).body).toEqual(INVALID_CODE);

    const refused = await verifyReset(server, requested.body.resetPhoneNumberToken, code);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(NEEDS_PASSWORD);
    expect(refused.body.errors[0]).toContain("Sign in with your password first, then choose 'Lost your phone?'");
    expect(refused.body.errors[0]).toContain('recovery codes');
    // The code is spent, and no token to set a number was given.
    expect((await verifyReset(server, requested.body.resetPhoneNumberToken, code)).body).toEqual(INVALID_CODE);

    // Nothing changed: sign-in still texts the old phone, the account keeps its number, nobody was told of a change.
    expect(await smsFactorPhones(server, user.email)).toEqual([expect.stringMatching(masked(user.phone))]);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.phoneNumber).toBe(phoneBefore);
    await server.phoneChange.idle();
    expect(await box.drain(user.email, 'email', /phone number was changed/)).toBe(0);
    expect(await box.drain(user.phone)).toBe(0);
  });

  it("refuses an mfaToken that is expired, already spent, another user's, or from a sign-in without the password (magic link); the SMS factor stays", async () => {
    const clock = movableClock();
    // Magic links on (the password still signs in), to get a pending sign-in that proved only the mailbox.
    const server = await h.start({ ...ROOMY, LOGIN_STRATEGY: 'MagicLink', RATE_LIMIT_PASSWORDLESS_PER_IP: '1000/600' }, { clock });
    const box = inbox(server);
    const ada = await smsEnrolledUser(server, box);
    const bob = await smsEnrolledUser(server, box);
    const expired = await pendingSignIn(server, ada.email);

    const requested = await requestReset(server, ada.email);
    const { code } = await box.next(ada.email, 'email', RESET_SUBJECT);
    const tryWith = (mfaToken: string) => verifyReset(server, requested.body.resetPhoneNumberToken, code, {}, mfaToken);

    // Expired (the emailed code, 15 minutes, is still good): refused before the code is looked at, so it stays usable.
    clock.advance(MFA_TOKEN_TTL_MS + 1000);
    const late = await tryWith(expired);
    expect(late.status).toBe(401);
    expect(late.body).toEqual(STALE_SIGN_IN);

    // Spent: the sign-in it belonged to finished.
    const finished = await pendingSignIn(server, ada.email);
    const sent = await call(server, 'POST', MfaFactorPaths.smsPreVerify, { body: { mfaToken: finished } });
    expect((await call(server, 'POST', MfaFactorPaths.smsVerify, { body: { mfaToken: finished, otcToken: sent.body.otcToken, code: (await box.next(ada.phone)).code } })).status).toBe(200);
    expect((await tryWith(finished)).body).toEqual(STALE_SIGN_IN);

    // A magic-link sign-in of the same user proved only the mailbox the reset code went to.
    expect((await call(server, 'POST', ApiPaths.passwordlessPreLogin.replace('{type}', 'magiclink'), { body: { email: ada.email } })).status).toBe(200);
    await server.passwordless.idle();
    const link = /https?:\/\/\S+\/account\/login\/magic-link\?\S+/.exec((await box.next(ada.email, 'email', /sign-in link/i)).message.text)![0];
    const viaLink = await call(server, 'POST', ApiPaths.passwordlessPostLogin.replace('{type}', 'magiclink'), { body: { token: new URL(link).searchParams.get('token') } });
    expect(viaLink.body.mfaRequired).toBe(true);
    expect((await tryWith(viaLink.body.mfaToken)).body).toEqual(STALE_SIGN_IN);

    // Another user's live password sign-in: refused once ada's mailbox is proven (the code is then spent).
    const other = await tryWith(await pendingSignIn(server, bob.email));
    expect(other.status).toBe(401);
    expect(other.body).toEqual(STALE_SIGN_IN);
    expect((await verifyReset(server, requested.body.resetPhoneNumberToken, code, {}, await pendingSignIn(server, ada.email))).body).toEqual(INVALID_CODE);

    expect(await smsFactorPhones(server, ada.email)).toEqual([expect.stringMatching(masked(ada.phone))]);
    expect(await smsFactorPhones(server, bob.email)).toEqual([expect.stringMatching(masked(bob.phone))]);
  });

  it('accounts without an SMS second factor are unaffected: the mailbox alone changes the number (an authenticator app stays as it is)', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const box = inbox(server);
    const user = await signUpAndActivate(server);
    const oldPhone = uniquePhone();
    const started = await call(server, 'POST', MfaFactorPaths.phone, { token: user.accessToken, body: { phoneNumber: oldPhone } });
    expect((await verifyPhone(server, started.body.changePhoneId, (await box.next(oldPhone)).code)).status).toBe(200);
    const enroll = await call(server, 'POST', ApiPaths.mfaAuthenticatorEnroll, { token: user.accessToken });
    expect((await call(server, 'POST', ApiPaths.mfaAuthenticatorEnrollVerify, { token: user.accessToken, body: { token: appCode(enroll.body.secret, clock.now()) } })).status).toBe(200);

    const token = await verifiedReset(server, box, user.email);
    const newPhone = uniquePhone();
    const changed = await change(server, token, newPhone);
    expect(changed.status).toBe(200);
    expect((await verifyPhone(server, changed.body.changePhoneId, (await box.next(newPhone)).code)).status).toBe(200);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.phoneNumber).toBe(newPhone);
    const pending = await login(server, user.email);
    expect(pending.body.mfaDevices.phones).toEqual([]);
    expect(pending.body.mfaDevices.authenticators).toHaveLength(1);
  });

  it('a reset that began without a password sign-in cannot replace an SMS factor enrolled before its texted code is checked', async () => {
    const server = await h.start(ROOMY);
    const box = inbox(server);
    const user = await signUpAndActivate(server);
    const oldPhone = uniquePhone();
    const started = await call(server, 'POST', MfaFactorPaths.phone, { token: user.accessToken, body: { phoneNumber: oldPhone } });
    expect((await verifyPhone(server, started.body.changePhoneId, (await box.next(oldPhone)).code)).status).toBe(200);

    // No SMS factor yet: the mailbox alone gets a token and a texted code for a new number.
    const token = await verifiedReset(server, box, user.email);
    const newPhone = uniquePhone();
    const changed = await change(server, token, newPhone);
    expect(changed.status).toBe(200);
    const smsCode = (await box.next(newPhone)).code;

    // Meanwhile the phone becomes a second factor.
    const enrol = await call(server, 'POST', MfaFactorPaths.smsEnroll, { token: user.accessToken, body: { phoneNumber: oldPhone } });
    expect((await call(server, 'POST', MfaFactorPaths.smsEnrollVerify, { token: user.accessToken, body: { otcToken: enrol.body.otcToken, token: (await box.next(oldPhone)).code } })).status).toBe(200);

    const refused = await verifyPhone(server, changed.body.changePhoneId, smsCode);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(NEEDS_PASSWORD);
    // No new text is sent for it either.
    const again = await change(server, token, uniquePhone());
    expect(again.status).toBe(403);
    expect(again.body).toEqual(NEEDS_PASSWORD);
    expect(await smsFactorPhones(server, user.email)).toEqual([expect.stringMatching(masked(oldPhone))]);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.phoneNumber).toBe(oldPhone);
  });

  it('answers the same for unknown and phone-less accounts and sends nothing; made-up tokens get the same error', async () => {
    const server = await h.start(ROOMY);
    const phoneless = await signUpAndActivate(server);
    const unknown = uniqueEmail('nobody');
    const a = await requestReset(server, unknown);
    const b = await requestReset(server, phoneless.email);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(Object.keys(a.body)).toEqual(Object.keys(b.body));
    expect(a.body.resetPhoneNumberToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await server.phoneChange.idle();
    const mails = await mailbox(server);
    expect(mails.filter((m) => m.to === unknown || (m.to === phoneless.email && /phone/i.test(m.subject)))).toEqual([]);
    expect((await verifyReset(server, a.body.resetPhoneNumberToken, '123456')).body).toEqual(INVALID_CODE);
    expect((await verifyPhone(server, 'x'.repeat(43), '123456')).body).toEqual(INVALID_CODE);
    expect((await change(server, 'x'.repeat(43), uniquePhone())).status).toBe(400);
    expect((await requestReset(server, 'not an email')).status).toBe(400);
  });

  it('an emailed code expires after 15 minutes and allows 5 attempts; a newer request kills the older one', async () => {
    const clock = movableClock();
    const server = await h.start(ROOMY, { clock });
    const box = inbox(server);
    const user = await smsEnrolledUser(server, box);

    const first = await requestReset(server, user.email);
    const firstCode = (await box.next(user.email, 'email', RESET_SUBJECT)).code;
    clock.advance(15 * 60_000 + 1000);
    expect((await verifyReset(server, first.body.resetPhoneNumberToken, firstCode)).body).toEqual(INVALID_CODE);

    const second = await requestReset(server, user.email);
    const secondCode = (await box.next(user.email, 'email', RESET_SUBJECT)).code;
    const third = await requestReset(server, user.email);
    const thirdCode = (await box.next(user.email, 'email', RESET_SUBJECT)).code;
    expect((await verifyReset(server, second.body.resetPhoneNumberToken, secondCode)).body).toEqual(INVALID_CODE);
    for (let i = 0; i < 5; i++) expect((await verifyReset(server, third.body.resetPhoneNumberToken, otherThan(thirdCode))).body).toEqual(INVALID_CODE);
    expect((await verifyReset(server, third.body.resetPhoneNumberToken, thirdCode)).body).toEqual(INVALID_CODE);
  });

  it('limits requests per IP (429) and per email (same answer, nothing sent), and code checks per IP', async () => {
    // Counters live in the database this file's tests share: this test comes from an address of its own.
    const server = await h.start({ ...ROOMY, TRUST_PROXY: 'true', RATE_LIMIT_PHONE_RESET_PER_IP: '3/3600', RATE_LIMIT_PHONE_RESET_PER_EMAIL: '1/3600', RATE_LIMIT_PHONE_VERIFY_PER_IP: '2/600' });
    const from = { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
    const box = inbox(server);
    const user = await smsEnrolledUser(server, box);
    expect((await requestReset(server, user.email, from)).status).toBe(200);
    const quiet = await requestReset(server, user.email, from);
    expect(quiet.status).toBe(200);
    expect(await box.drain(user.email, 'email', RESET_SUBJECT)).toBe(1);
    expect((await requestReset(server, uniqueEmail(), from)).status).toBe(200);
    const limited = await requestReset(server, uniqueEmail(), from);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    expect((await verifyReset(server, quiet.body.resetPhoneNumberToken, '123456', from)).status).toBe(400);
    expect((await verifyReset(server, quiet.body.resetPhoneNumberToken, '123456', from)).status).toBe(400);
    expect((await verifyReset(server, quiet.body.resetPhoneNumberToken, '123456', from)).status).toBe(429);
  });

  it('a signed-in user sets a phone number with a texted code; a stale sign-in and a missing token are refused', async () => {
    const clock = movableClock();
    const server = await h.start(ROOMY, { clock });
    const box = inbox(server);
    const user = await signUpAndActivate(server);
    const phone = uniquePhone();

    expect((await call(server, 'POST', MfaFactorPaths.phone, { body: { phoneNumber: phone } })).status).toBe(401);
    expect((await call(server, 'POST', MfaFactorPaths.phone, { token: user.accessToken, body: { phoneNumber: 'call me' } })).status).toBe(400);
    const started = await call(server, 'POST', MfaFactorPaths.phone, { token: user.accessToken, body: { phoneNumber: phone } });
    expect(started.status).toBe(200);
    const code = (await box.next(phone)).code;
    expect((await verifyPhone(server, started.body.changePhoneId, otherThan(code))).body).toEqual(INVALID_CODE);
    expect((await verifyPhone(server, started.body.changePhoneId, code)).status).toBe(200);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.phoneNumber).toBe(phone);
    expect((await call(server, 'POST', MfaFactorPaths.phone, { token: user.accessToken, body: { phoneNumber: phone } })).status).toBe(400);

    clock.advance(11 * 60_000);
    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie });
    const stale = await call(server, 'POST', MfaFactorPaths.phone, { token: refreshed.body.accessToken, body: { phoneNumber: uniquePhone() } });
    expect(stale.status).toBe(403);
    expect(stale.body.errorCode).toBe(ErrorCodes.recentAuthRequired);
  });

  it('a number verified by another account is refused once the code proves the phone (409)', async () => {
    const server = await h.start(ROOMY);
    const box = inbox(server);
    const ada = await signUpAndActivate(server);
    const bob = await signUpAndActivate(server);
    const phone = uniquePhone();
    const adaStart = await call(server, 'POST', MfaFactorPaths.phone, { token: ada.accessToken, body: { phoneNumber: phone } });
    expect((await verifyPhone(server, adaStart.body.changePhoneId, (await box.next(phone)).code)).status).toBe(200);
    const bobStart = await call(server, 'POST', MfaFactorPaths.phone, { token: bob.accessToken, body: { phoneNumber: phone } });
    expect(bobStart.status).toBe(200);
    const taken = await verifyPhone(server, bobStart.body.changePhoneId, (await box.next(phone)).code);
    expect(taken.status).toBe(409);
    expect((await call(server, 'GET', ApiPaths.me, { token: bob.accessToken })).body.phoneNumber).toBeNull();
  });

  it('changing the phone number needs a step-up when the account has a second factor', async () => {
    const server = await h.start(ROOMY);
    const box = inbox(server);
    const user = await smsEnrolledUser(server, box);
    // The sign-up session signed in with the password only, before the phone became a factor.
    const refused = await call(server, 'POST', MfaFactorPaths.phone, { token: user.accessToken, body: { phoneNumber: uniquePhone() } });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(ErrorCodes.stepUpRequired);
  });
});
