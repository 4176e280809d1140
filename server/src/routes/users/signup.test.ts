import { SMTPServer } from 'smtp-server';
import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { activationLinkFor, call, describeDialects, mailbox, movableClock, PASSWORD, uniqueEmail } from '../../test/harness';

describeDialects('sign-up and activation', (h) => {
  it('explains password policy failures in a sentence', async () => {
    const server = await h.start({ PASSWORD_MIN_OPTIONAL_TESTS: '3' });
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
    const server = await h.start();
    expect((await call(server, 'GET', ApiPaths.passwordsConfig)).body).toEqual({ allowPassphrases: true, maxLength: 128, minLength: 8, minPhraseLength: 20, minOptionalTestsToPass: 0 });
    expect((await call(server, 'GET', ApiPaths.signUpStrategies)).body).toEqual({ email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } });
    expect((await call(server, 'GET', ApiPaths.vendorPublic)).body).toMatchObject({ allowSignUps: true, loginStrategy: 'EmailAndPassword' });
  });

  it('refuses a verified email with 409 and resends the link for an unverified one', async () => {
    const server = await h.start();
    const email = uniqueEmail();
    const first = await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } });
    const firstLink = await activationLinkFor(server, email);
    const again = await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } });
    expect(again.status).toBe(200);
    expect(again.body.userId).toBe(first.body.userId);
    const secondLink = await activationLinkFor(server, email);
    expect(secondLink.token).not.toBe(firstLink.token);
    // The older link died when the new one was sent.
    expect((await call(server, 'POST', ApiPaths.activate, { body: firstLink })).status).toBe(400);
    expect((await call(server, 'POST', ApiPaths.activate, { body: { userId: secondLink.userId, token: secondLink.token } })).status).toBe(200);
    const taken = await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ errors: ['User already exists'], errorCode: ErrorCodes.userAlreadyExists });
  });

  it('uses an activation token once only', async () => {
    const server = await h.start();
    const email = uniqueEmail();
    await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } });
    const { userId, token } = await activationLinkFor(server, email);
    expect((await call(server, 'POST', ApiPaths.activate, { body: { userId, token } })).status).toBe(200);
    const replay = await call(server, 'POST', ApiPaths.activate, { body: { userId, token } });
    expect(replay.status).toBe(400);
    expect(replay.body.errorCode).toBe(ErrorCodes.invalidActivationToken);
    expect((await call(server, 'GET', `${ApiPaths.activateStrategy}?userId=${userId}&token=${token}`)).status).toBe(400);
  });

  it('refuses an expired activation token and a token of another user', async () => {
    const clock = movableClock();
    const server = await h.start({ ACTIVATION_TOKEN_TTL: '3600' }, { clock });
    const email = uniqueEmail();
    await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } });
    const { userId, token } = await activationLinkFor(server, email);
    expect((await call(server, 'POST', ApiPaths.activate, { body: { userId: 'someone-else', token } })).status).toBe(400);
    clock.advance(3600 * 1000 + 1);
    const late = await call(server, 'POST', ApiPaths.activate, { body: { userId, token } });
    expect(late.status).toBe(400);
    expect(late.body.errors).toEqual(['The activation link is invalid or has expired']);
  });

  it('resends activation only for unverified users and always answers 200', async () => {
    const server = await h.start();
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
    const server = await h.start({ GATEHOUSE_APP_URL: 'https://app.example.com' });
    const a = uniqueEmail();
    await call(server, 'POST', ApiPaths.signUp, { body: { email: a, password: PASSWORD }, headers: { origin: 'http://app.test:3000' } });
    expect((await activationLinkFor(server, a)).link.startsWith('http://app.test:3000/account/activate?')).toBe(true);
    const b = uniqueEmail();
    await call(server, 'POST', ApiPaths.signUp, { body: { email: b, password: PASSWORD }, headers: { origin: 'https://evil.example' } });
    expect((await activationLinkFor(server, b)).link.startsWith('https://app.example.com/account/activate?')).toBe(true);
  });

  it('refuses sign-up when ALLOW_SIGNUPS is false', async () => {
    const server = await h.start({ ALLOW_SIGNUPS: 'false' });
    const res = await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail(), password: PASSWORD } });
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe(ErrorCodes.signUpDisabled);
  });

  it('delivers the activation email over SMTP when SMTP_URL is set', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push(data);
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as { port: number }).port;
    try {
      const server = await h.start({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Gatehouse <no-reply@gatehouse.test>' });
      const email = uniqueEmail('smtp');
      expect((await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } })).status).toBe(200);
      expect(received).toHaveLength(1);
      const raw = received[0]!.replace(/=\r?\n/g, '');
      expect(raw).toContain('Subject: Activate your Gatehouse account');
      expect(raw).toContain(`To: ${email}`);
      expect(raw).toContain('/account/activate?userId=3D'); // quoted-printable '='
      expect((await mailbox(server)).some((m) => m.to === email)).toBe(false);
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
