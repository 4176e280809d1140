import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { activationLinkFor, call, describeDialects, mailbox, movableClock, PASSWORD, uniqueEmail, type CallOptions, type CallResult } from '../../test/harness';
import { startSmtpReceiver } from '../../test/smtp-receiver';

const ATTACKER_PASSWORD = 'attacker knows this one';

const strategyPath = (userId: string, token: string) => `${ApiPaths.activateStrategy}?userId=${encodeURIComponent(userId)}&token=${encodeURIComponent(token)}`;

/** A browser's cookie jar (path scoping ignored: every call here targets the paths the cookies are for). */
class Jar {
  private readonly cookies = new Map<string, string>();

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async call<T = any>(server: GatehouseServer, method: string, path: string, opts: CallOptions = {}): Promise<CallResult<T>> {
    const headers = { ...opts.headers, ...(this.cookies.size ? { cookie: this.header() } : {}) };
    const res = await call<T>(server, method, path, { ...opts, headers });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (!value || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

describeDialects('sign-up and activation', (h) => {
  // All tests in this file sign up from one (unknown) client IP on one database, more than the
  // default per-IP limit allows; rate-limit.test.ts covers the limit itself.
  const start: typeof h.start = (env = {}, overrides) => h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', ...env }, overrides);

  it('explains password policy failures in a sentence', async () => {
    const server = await start({ PASSWORD_MIN_OPTIONAL_TESTS: '3' });
    const short = await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: 'abc' } });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ errors: ['Password must be at least 8 characters long'], errorCode: ErrorCodes.passwordPolicy });
    const weak = await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: 'abcdefghij' } });
    expect(weak.body.errors[0]).toMatch(/^Password must contain at least 3 of: /);
    // A long passphrase skips the optional tests.
    expect((await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: 'a long and lowercase passphrase' } })).status).toBe(200);
    const missing = await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail() } });
    expect(missing.body.errors).toEqual(['Password is required']);
    const tooLong = await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: 'Aa1!'.repeat(40) } });
    expect(tooLong.body.errors).toEqual(['Password must be at most 128 characters long']);
  });

  it('serves the password config, strategies and vendor config', async () => {
    const server = await start();
    expect((await call(server, 'GET', ApiPaths.passwordsConfig)).body).toEqual({ allowPassphrases: true, maxLength: 128, minLength: 8, minPhraseLength: 20, minOptionalTestsToPass: 0 });
    expect((await call(server, 'GET', ApiPaths.signUpStrategies)).body).toEqual({ email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } });
    expect((await call(server, 'GET', ApiPaths.vendorPublic)).body).toMatchObject({ allowSignUps: true, loginStrategy: 'EmailAndPassword' });
  });

  it('refuses a verified email with 409; a repeat unverified sign-up gets a new bound link and kills the older one', async () => {
    const server = await start();
    const email = uniqueEmail();
    const jar = new Jar();
    const first = await jar.call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } });
    const firstLink = await activationLinkFor(server, email);
    const again = await jar.call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } });
    expect(again.status).toBe(200);
    // Same shape as a first sign-up, but the existing account's ids are not disclosed.
    expect(Object.keys(again.body).sort()).toEqual(Object.keys(first.body).sort());
    expect(again.body).toMatchObject({ shouldActivate: true, userId: expect.stringMatching(/^[0-9a-f]{32}$/), tenantId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(again.body.userId).not.toBe(first.body.userId);
    expect(again.body.tenantId).not.toBe(first.body.tenantId);
    const secondLink = await activationLinkFor(server, email);
    expect(secondLink.userId).toBe(first.body.userId);
    expect(secondLink.token).not.toBe(firstLink.token);
    // The older link died when the new one was sent, even in the browser that made it.
    expect((await jar.call(server, 'POST', ApiPaths.activate, { body: { ...firstLink, password: PASSWORD } })).status).toBe(400);
    expect((await jar.call(server, 'POST', ApiPaths.activate, { body: { userId: secondLink.userId, token: secondLink.token } })).status).toBe(200);
    const taken = await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ errors: ['User already exists'], errorCode: ErrorCodes.userAlreadyExists });
  });

  it('a repeat sign-up needs a password that meets the policy, like a first one', async () => {
    const server = await start();
    const email = uniqueEmail();
    await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } });
    expect((await call(server, 'POST', ApiPaths.signUp, { body: { email } })).body).toEqual({ errors: ['Password is required'], errorCode: ErrorCodes.passwordPolicy });
    expect((await call(server, 'POST', ApiPaths.signUp, { body: { email, password: 'abc' } })).status).toBe(400);
  });

  it('sets the gatehouse-signup binding cookie: httpOnly, scoped to activation, lives as long as the link', async () => {
    const server = await start({ ACTIVATION_TOKEN_TTL: '7200' });
    const res = await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: PASSWORD } });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('gatehouse-signup='))!;
    expect(cookie).toBeTruthy();
    expect(cookie).toMatch(/^gatehouse-signup=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain(`Path=${ApiPaths.activate}`);
    expect(cookie).toContain('Max-Age=7200');
    expect(cookie).toContain('SameSite=Lax');
  });

  it('same browser: the link activates without a password form and signs in with the sign-up password and profile', async () => {
    const server = await start();
    const email = uniqueEmail('newcomer');
    const jar = new Jar();
    const signUp = await jar.call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD, name: 'Ada', companyName: 'Analytical Engines', phoneNumber: '+44 20 7946 0958', metadata: '{"a":1}' } });
    expect(signUp.body).toMatchObject({ shouldActivate: true });
    const { userId, token } = await activationLinkFor(server, email);
    expect(userId).toBe(signUp.body.userId);
    // Nothing is usable before activation: not even the sign-up password.
    expect((await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD } })).status).not.toBe(200);
    expect((await jar.call(server, 'GET', strategyPath(userId, token))).body).toEqual({ shouldSetPassword: false });
    const activated = await jar.call(server, 'POST', ApiPaths.activate, { body: { userId, token } });
    expect(activated.status).toBe(200);
    expect(activated.refreshCookie).toBeTruthy();
    expect(activated.body.userId).toBe(userId);
    expect(activated.body.tenantId).toBe(signUp.body.tenantId);
    // The binding cookie is cleared once used.
    expect(activated.headers.getSetCookie().find((c) => c.startsWith('gatehouse-signup='))).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect(jar.has('gatehouse-signup')).toBe(false);
    const login = await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    const me = await call(server, 'GET', ApiPaths.me, { token: login.body.accessToken });
    // The phone number is stored in E.164 (services/platform/phone.ts).
    expect(me.body).toMatchObject({ name: 'Ada', phoneNumber: '+442079460958' });
    expect(me.body.tenants[0]).toMatchObject({ tenantId: signUp.body.tenantId, name: 'Analytical Engines' });
  });

  it('pre-sign-up account takeover: the attacker password set at an earlier sign-up of the victim email never activates', async () => {
    const server = await start();
    const email = uniqueEmail('victim');
    const attacker = new Jar();
    const victim = new Jar();
    expect((await attacker.call(server, 'POST', ApiPaths.signUp, { body: { email, password: ATTACKER_PASSWORD, name: 'Mallory', companyName: 'Evil Corp', metadata: '{"role":"owner"}' } })).status).toBe(200);
    expect((await victim.call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD, name: 'Victoria', companyName: 'Victim Ltd' } })).status).toBe(200);
    const { userId, token } = await activationLinkFor(server, email); // the latest link: the victim's
    expect((await victim.call(server, 'GET', strategyPath(userId, token))).body).toEqual({ shouldSetPassword: false });
    expect((await victim.call(server, 'POST', ApiPaths.activate, { body: { userId, token } })).status).toBe(200);
    const login = await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.login, { body: { email, password: ATTACKER_PASSWORD } })).status).toBe(401);
    // The attacker's profile never reached the account either.
    const me = await call(server, 'GET', ApiPaths.me, { token: login.body.accessToken });
    expect(me.body.name).toBe('Victoria');
    expect(me.body.metadata ?? null).not.toBe('{"role":"owner"}');
    expect(me.body.tenants[0].name).toBe('Victim Ltd');
    // And the attacker's browser cannot reuse anything: its link is dead.
    expect((await attacker.call(server, 'POST', ApiPaths.activate, { body: { userId, token } })).status).toBe(400);
  });

  it('pre-sign-up account takeover: the victim opening the attacker-triggered link must choose the password', async () => {
    const server = await start();
    const email = uniqueEmail('victim');
    const [local, domain] = email.split('@') as [string, string];
    const attacker = new Jar();
    const victim = new Jar();
    const attackerSignUp = await attacker.call(server, 'POST', ApiPaths.signUp, { body: { email, password: ATTACKER_PASSWORD, name: 'Mallory', companyName: 'Evil Corp', phoneNumber: '+1 555 010 0999', metadata: '{"role":"owner"}' } });
    expect(attackerSignUp.status).toBe(200);
    const { userId, token } = await activationLinkFor(server, email);
    // The email itself carries nothing the attacker typed.
    expect((await mailbox(server)).find((m) => m.to === email)!.text).not.toContain('Mallory');
    expect((await victim.call(server, 'GET', strategyPath(userId, token))).body).toEqual({ shouldSetPassword: true });
    expect((await call(server, 'GET', strategyPath(userId, token))).body).toEqual({ shouldSetPassword: true });
    const bare = await victim.call(server, 'POST', ApiPaths.activate, { body: { userId, token } });
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({ errors: ['Password is required'], errorCode: ErrorCodes.passwordPolicy });
    const weak = await victim.call(server, 'POST', ApiPaths.activate, { body: { userId, token, password: 'abc' } });
    expect(weak.status).toBe(400);
    expect(weak.body.errorCode).toBe(ErrorCodes.passwordPolicy);
    const chosen = 'the victim chose this one';
    const activated = await victim.call(server, 'POST', ApiPaths.activate, { body: { userId, token, password: chosen } });
    expect(activated.status).toBe(200);
    const login = await call(server, 'POST', ApiPaths.login, { body: { email, password: chosen } });
    expect(login.status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.login, { body: { email, password: ATTACKER_PASSWORD } })).status).toBe(401);
    const me = await call(server, 'GET', ApiPaths.me, { token: login.body.accessToken });
    expect(me.body.name).toBe(local);
    expect(me.body.phoneNumber ?? null).toBeNull();
    expect(me.body.metadata ?? null).toBeNull();
    expect(me.body.tenants[0].name).toBe(domain);
  });

  it('a binding cookie from another sign-up does not match, and a resent link always asks for a password', async () => {
    const server = await start();
    const a = uniqueEmail('a');
    const b = uniqueEmail('b');
    const jarA = new Jar();
    await jarA.call(server, 'POST', ApiPaths.signUp, { body: { email: a, password: PASSWORD } });
    await call(server, 'POST', ApiPaths.signUp, { body: { email: b, password: PASSWORD } });
    const linkB = await activationLinkFor(server, b);
    expect((await jarA.call(server, 'GET', strategyPath(linkB.userId, linkB.token))).body).toEqual({ shouldSetPassword: true });
    expect((await jarA.call(server, 'POST', ApiPaths.activate, { body: { userId: linkB.userId, token: linkB.token } })).status).toBe(400);
    // A forged cookie does not match either.
    const forged = await call(server, 'POST', ApiPaths.activate, { body: { userId: linkB.userId, token: linkB.token }, headers: { cookie: 'gatehouse-signup=AAAA' } });
    expect(forged.body.errors).toEqual(['Password is required']);
    // A resend replaces the bound link with an unbound one, even for the browser that signed up.
    await call(server, 'POST', ApiPaths.activateResend, { body: { email: a } });
    const linkA = await activationLinkFor(server, a);
    expect((await jarA.call(server, 'GET', strategyPath(linkA.userId, linkA.token))).body).toEqual({ shouldSetPassword: true });
    expect((await jarA.call(server, 'POST', ApiPaths.activate, { body: { userId: linkA.userId, token: linkA.token } })).status).toBe(400);
    expect((await jarA.call(server, 'POST', ApiPaths.activate, { body: { userId: linkA.userId, token: linkA.token, password: PASSWORD } })).status).toBe(200);
  });

  it('resends activation only for unverified users and always answers 200', async () => {
    const server = await start();
    const email = uniqueEmail();
    await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } });
    const before = (await mailbox(server)).filter((m) => m.to === email).length;
    expect((await call(server, 'POST', ApiPaths.activateResend, { body: { email } })).status).toBe(200);
    expect((await mailbox(server)).filter((m) => m.to === email).length).toBe(before + 1);
    const nobody = uniqueEmail('ghost');
    expect((await call(server, 'POST', ApiPaths.activateResend, { body: { email: nobody } })).status).toBe(200);
    expect((await mailbox(server)).some((m) => m.to === nobody)).toBe(false);
  });

  it('points email links at an allowed request origin, else at GATEHOUSE_APP_URL', async () => {
    const server = await start({ GATEHOUSE_APP_URL: 'https://app.example.com' });
    const a = uniqueEmail();
    await call(server, 'POST', ApiPaths.signUp, { body: { email: a, password: PASSWORD }, headers: { origin: 'http://app.test:3000' } });
    expect((await activationLinkFor(server, a)).link.startsWith('http://app.test:3000/account/activate?')).toBe(true);
    const b = uniqueEmail();
    await call(server, 'POST', ApiPaths.signUp, { body: { email: b, password: PASSWORD }, headers: { origin: 'https://evil.example' } });
    expect((await activationLinkFor(server, b)).link.startsWith('https://app.example.com/account/activate?')).toBe(true);
  });

  it('refuses sign-up when ALLOW_SIGNUPS is false', async () => {
    const server = await start({ ALLOW_SIGNUPS: 'false' });
    const res = await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: PASSWORD } });
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe(ErrorCodes.signUpDisabled);
  });

  it('delivers the activation email over SMTP when SMTP_URL is set', async () => {
    const smtp = await startSmtpReceiver();
    const { received } = smtp;
    try {
      const server = await start({ SMTP_URL: smtp.url, MAIL_FROM: 'Gatehouse <no-reply@gatehouse.test>' });
      const email = uniqueEmail('smtp');
      expect((await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } })).status).toBe(200);
      expect(received).toHaveLength(1);
      const raw = received[0]!.replace(/=\r?\n/g, '');
      // In the name of the tenant the sign-up made (the email's domain until renamed).
      expect(raw).toContain('Subject: Activate your example.com account');
      // Sent in the tenant's name, from MAIL_FROM's address.
      expect(raw).toMatch(/From: "?example\.com"? <no-reply@gatehouse\.test>/);
      expect(raw).toContain(`To: ${email}`);
      expect(raw).toContain('/account/activate?userId=3D'); // quoted-printable '='
      expect((await mailbox(server)).some((m) => m.to === email)).toBe(false);
    } finally {
      await smtp.close();
    }
  });
});
