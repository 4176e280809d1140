import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { call, describeDialects, mailbox, movableClock, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';

const NEW_PASSWORD = 'a brand new passphrase';

/** The userId/token of the newest reset email to `to`, after the background delivery finished. */
async function resetLinkFor(server: GatehouseServer, to: string): Promise<{ userId: string; token: string; link: string }> {
  await server.recovery.idle();
  const mail = (await mailbox(server)).find((m) => m.to === to && m.channel === 'email' && /reset/i.test(m.subject));
  if (!mail) throw new Error(`no reset mail to ${to}`);
  const link = /https?:\/\/\S+\/account\/reset-password\?\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error('no reset link in mail');
  const u = new URL(link);
  return { userId: u.searchParams.get('userId')!, token: u.searchParams.get('token')!, link };
}

async function resetMailsTo(server: GatehouseServer, to: string): Promise<number> {
  await server.recovery.idle();
  return (await mailbox(server)).filter((m) => m.to === to && /reset/i.test(m.subject)).length;
}

const login = (server: GatehouseServer, email: string, password: string) => call(server, 'POST', ApiPaths.login, { body: { email, password } });

describeDialects('password reset by email and password change', (h) => {
  // Every test here works from one (unknown) client IP; rate-limit tests cover the per-IP limits.
  const start: typeof h.start = (env = {}, overrides) =>
    h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_PASSWORD_RESET_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', ...env }, overrides);

  it('emails a single-use link; the new password works, the old one not, every old session is revoked and the user is signed in', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const requested = await call(server, 'POST', ApiPaths.passwordsReset, { body: { email: user.email } });
    expect(requested.status).toBe(200);
    expect(requested.body).toEqual({});
    const { userId, token, link } = await resetLinkFor(server, user.email);
    expect(link.startsWith(`${server.config.appUrl}/account/reset-password?`)).toBe(true);
    expect(userId).toBe(user.userId);

    const reset = await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId, token, password: NEW_PASSWORD } });
    expect(reset.status).toBe(200);
    // Signed in as a login would be: an access token and a new refresh cookie (no MFA here).
    expect(reset.body).toMatchObject({ mfaRequired: false, userId: user.userId, tenantId: user.tenantId });
    expect(reset.refreshCookie).toBeTruthy();
    expect((await call(server, 'GET', ApiPaths.me, { token: reset.body.accessToken })).status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie, body: {} })).status).toBe(401);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).status).toBe(401);
    expect((await login(server, user.email, PASSWORD)).status).toBe(401);
    expect((await login(server, user.email, NEW_PASSWORD)).status).toBe(200);

    const reused = await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId, token, password: 'yet another passphrase' } });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ errors: ['The password reset link is invalid or has expired'], errorCode: ErrorCodes.invalidResetToken });
    expect((await login(server, user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses wrong, expired and superseded links, and a weak password without spending the link', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const user = await signUpAndActivate(server);
    await call(server, 'POST', ApiPaths.passwordsReset, { body: { email: user.email } });
    const first = await resetLinkFor(server, user.email);
    clock.advance(1000);
    await call(server, 'POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: user.email, identifierType: 'email' } });
    const second = await resetLinkFor(server, user.email);
    expect(second.token).not.toBe(first.token);

    const verify = (userId: string, token: string, password = NEW_PASSWORD) => call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId, token, password } });
    // The older link died when the second was sent.
    expect((await verify(first.userId, first.token)).body.errorCode).toBe(ErrorCodes.invalidResetToken);
    expect((await verify(second.userId, `${second.token}x`)).body.errorCode).toBe(ErrorCodes.invalidResetToken);
    expect((await verify('someone-else', second.token)).body.errorCode).toBe(ErrorCodes.invalidResetToken);
    const weak = await verify(second.userId, second.token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.body).toEqual({ errors: ['Password must be at least 8 characters long'], errorCode: ErrorCodes.passwordPolicy });

    clock.advance(1800 * 1000); // RESET_PASSWORD_TOKEN_TTL default
    expect((await verify(second.userId, second.token)).body.errorCode).toBe(ErrorCodes.invalidResetToken);
    expect((await login(server, user.email, PASSWORD)).status).toBe(200);

    // Within the lifetime the same link still works after the weak attempt.
    await call(server, 'POST', ApiPaths.passwordsReset, { body: { email: user.email } });
    const third = await resetLinkFor(server, user.email);
    expect((await verify(third.userId, third.token, 'short')).status).toBe(400);
    clock.advance(1799 * 1000);
    expect((await verify(third.userId, third.token)).status).toBe(200);
  });

  it('answers unknown and known identifiers alike and emails only known, active users', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const unknown = uniqueEmail('nobody');
    const pending = uniqueEmail('pending');
    expect((await call(server, 'POST', ApiPaths.signUp, { body: { email: pending, password: PASSWORD } })).status).toBe(200);

    for (const [path, bodyOf] of [
      [ApiPaths.passwordsReset, (email: string) => ({ email })],
      [ApiPaths.passwordsResetEmailV2, (email: string) => ({ identifier: email, identifierType: 'email' })],
    ] as const) {
      const known = await call(server, 'POST', path, { body: bodyOf(user.email) });
      const other = await call(server, 'POST', path, { body: bodyOf(unknown) });
      const inactive = await call(server, 'POST', path, { body: bodyOf(pending) });
      for (const res of [known, other, inactive]) {
        expect(res.status).toBe(200);
        expect(res.body).toEqual({});
        expect(res.headers.get('content-type')).toBe(known.headers.get('content-type'));
      }
    }
    const sms = await call(server, 'POST', ApiPaths.passwordsResetSmsV2, { body: { identifier: unknown, identifierType: 'email' } });
    expect(sms.status).toBe(200);
    expect(Object.keys(sms.body)).toEqual(['sessionId']);

    expect(await resetMailsTo(server, user.email)).toBe(2);
    expect(await resetMailsTo(server, unknown)).toBe(0);
    // Not activated: the activation mail stays the way in, recovery sends nothing.
    expect(await resetMailsTo(server, pending)).toBe(0);
  });

  it('limits requests per identifier silently, and per IP with 429', async () => {
    // A day ahead: the per-IP window of the earlier tests on this database is over.
    const clock = movableClock(Date.now() + 86_400_000);
    const server = await start({ RATE_LIMIT_PASSWORD_RESET_PER_IDENTIFIER: '2/3600', RATE_LIMIT_PASSWORD_RESET_PER_IP: '5/3600' }, { clock });
    const user = await signUpAndActivate(server);
    for (let i = 0; i < 3; i++) {
      // Case and spaces do not make a new identifier.
      const email = i === 2 ? ` ${user.email.toUpperCase()} ` : user.email;
      const res = await call(server, 'POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: email, identifierType: 'email' } });
      expect(res.status).toBe(200);
    }
    expect(await resetMailsTo(server, user.email)).toBe(2);
    await call(server, 'POST', ApiPaths.passwordsReset, { body: { email: uniqueEmail() } });
    await call(server, 'POST', ApiPaths.passwordsReset, { body: { email: uniqueEmail() } });
    const limited = await call(server, 'POST', ApiPaths.passwordsReset, { body: { email: uniqueEmail() } });
    expect(limited.status).toBe(429);
    expect(limited.body.errorCode).toBe(ErrorCodes.rateLimited);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('changes the password of the signed-in user: current one checked, other sessions revoked, this one kept', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const other = await login(server, user.email, PASSWORD);
    expect(other.status).toBe(200);
    const change = (body: unknown, token: string | undefined = user.accessToken) => call(server, 'POST', ApiPaths.passwordsChange, { body, ...(token ? { token } : {}) });

    expect((await change({ password: PASSWORD, newPassword: NEW_PASSWORD }, '')).status).toBe(401);
    const wrong = await change({ password: 'not my password', newPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ errors: ['The current password is incorrect'], errorCode: ErrorCodes.invalidCurrentPassword });
    const weak = await change({ password: PASSWORD, newPassword: 'short' });
    expect(weak.body.errorCode).toBe(ErrorCodes.passwordPolicy);
    expect((await login(server, user.email, PASSWORD)).status).toBe(200);

    expect((await change({ password: PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(200);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: user.cookie, body: {} })).status).toBe(200);
    expect((await call(server, 'GET', ApiPaths.me, { token: other.body.accessToken })).status).toBe(401);
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: other.refreshCookie!, body: {} })).status).toBe(401);
    expect((await login(server, user.email, PASSWORD)).status).toBe(401);
    expect((await login(server, user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('stops guessing the current password after the per-user limit', async () => {
    const server = await start({ RATE_LIMIT_PASSWORD_CHANGE_FAILURES_PER_USER: '2/900' });
    const user = await signUpAndActivate(server);
    const change = (password: string) => call(server, 'POST', ApiPaths.passwordsChange, { token: user.accessToken, body: { password, newPassword: NEW_PASSWORD } });
    expect((await change('guess one')).status).toBe(400);
    expect((await change('guess two')).status).toBe(400);
    expect((await change(PASSWORD)).status).toBe(429);
  });

  it('tells which recovery channels are on, the same for everyone', async () => {
    const dev = await start();
    expect((await call(dev, 'GET', ApiPaths.passwordRecoveryStrategies)).body).toEqual({
      strategies: [
        { strategy: 'email', isActive: true },
        { strategy: 'sms', isActive: true },
      ],
    });
    await dev.close();
    const production = await start({ GATEHOUSE_DEV: '0' });
    expect((await call(production, 'GET', ApiPaths.passwordRecoveryStrategies)).body.strategies[1]).toEqual({ strategy: 'sms', isActive: false });
    await production.close();
    const withProvider = await start({ GATEHOUSE_DEV: '0', SMS_HTTP_URL: 'http://127.0.0.1:9/sms' });
    expect((await call(withProvider, 'GET', ApiPaths.passwordRecoveryStrategies)).body.strategies[1]).toEqual({ strategy: 'sms', isActive: true });
  });
});
