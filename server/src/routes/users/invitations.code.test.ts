import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { findInvitation } from '../../db/queries/invitations';
import { INVITATION_CODE_MAX_ATTEMPTS } from '../../services/users/invitations';
import { call, describeDialects, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { claimsOf, invitationMailFor, invite } from '../../test/invitation-helpers';

const NEW_PASSWORD = 'an invited passphrase';
const acceptWithCode = (server: GatehouseServer, body: Record<string, unknown>) => call(server, 'POST', ApiPaths.invitationAcceptCode, { body });

describeDialects('invitations with a one-time code (INVITATION_STRATEGY=code)', (h) => {
  const start = () =>
    h.start({ INVITATION_STRATEGY: 'code', RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/600', RATE_LIMIT_INVITATION_RESEND_PER_IP: '1000/3600' });

  it('the email carries a code and a link to the code route; the link alone does not accept; the right code does and signs in', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const email = uniqueEmail('invitee');
    await invite(server, admin.accessToken, { email, name: 'Grace' });
    const mail = await invitationMailFor(server, email);
    expect(mail.link.startsWith(`${server.config.appUrl}/account/invitation/code?`)).toBe(true);
    expect(mail.code).toMatch(/^\d{6}$/);
    // The code is never part of a URL.
    expect(mail.link).not.toContain(mail.code!);
    const row = await findInvitation(server.db, admin.tenantId, mail.userId);
    expect(JSON.stringify(row)).not.toContain(mail.code!);

    expect((await call(server, 'POST', ApiPaths.invitationVerify, { body: { userId: mail.userId, token: mail.token } })).body.codeRequired).toBe(true);
    const linkOnly = await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token, password: NEW_PASSWORD } });
    expect(linkOnly.status).toBe(400);
    expect(linkOnly.body).toEqual({ errors: ['This invitation needs the code from the invitation email'], errorCode: ErrorCodes.invitationCodeRequired });

    const missing = await acceptWithCode(server, { userId: mail.userId, token: mail.token, password: NEW_PASSWORD });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual(['code: Required']);
    const wrong = await acceptWithCode(server, { userId: mail.userId, token: mail.token, password: NEW_PASSWORD, code: mail.code === '000000' ? '000001' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ errors: ['The code is invalid or has expired'], errorCode: ErrorCodes.invalidInvitationCode });

    const accepted = await acceptWithCode(server, { userId: mail.userId, token: mail.token, password: NEW_PASSWORD, code: ` ${mail.code} ` });
    expect(accepted.status).toBe(200);
    expect(accepted.body.outcome).toBe('signedIn');
    expect(accepted.refreshCookie).toBeTruthy();
    expect(claimsOf(accepted.body.authResponse.accessToken).tenantId).toBe(admin.tenantId);
    // Single use, code or not.
    expect((await acceptWithCode(server, { userId: mail.userId, token: mail.token, password: NEW_PASSWORD, code: mail.code })).body.errorCode).toBe(ErrorCodes.invalidInvitation);
  });

  it('five wrong codes spend the invitation (even the right code then fails) until a resend brings a new code', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const email = uniqueEmail('invitee');
    await invite(server, admin.accessToken, { email, name: 'Grace' });
    const mail = await invitationMailFor(server, email);
    const wrongCode = mail.code === '123456' ? '654321' : '123456';
    // Guesses in parallel cannot get more comparisons than the limit: each reserves its attempt first.
    const guesses = await Promise.all(Array.from({ length: INVITATION_CODE_MAX_ATTEMPTS + 3 }, () => acceptWithCode(server, { userId: mail.userId, token: mail.token, password: NEW_PASSWORD, code: wrongCode })));
    expect(guesses.every((g) => g.status === 400 && g.body.errorCode === ErrorCodes.invalidInvitationCode)).toBe(true);
    expect((await findInvitation(server.db, admin.tenantId, mail.userId))!.attempts).toBe(INVITATION_CODE_MAX_ATTEMPTS);
    const spent = await acceptWithCode(server, { userId: mail.userId, token: mail.token, password: NEW_PASSWORD, code: mail.code });
    expect(spent.body.errorCode).toBe(ErrorCodes.invalidInvitationCode);

    await call(server, 'POST', ApiPaths.invitationResend, { body: { email } });
    const fresh = await invitationMailFor(server, email);
    expect(fresh.token).not.toBe(mail.token);
    const accepted = await acceptWithCode(server, { userId: fresh.userId, token: fresh.token, password: NEW_PASSWORD, code: fresh.code });
    expect(accepted.status).toBe(200);
  });

  it('a refused password costs no code attempt', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const email = uniqueEmail('invitee');
    await invite(server, admin.accessToken, { email, name: 'Grace' });
    const mail = await invitationMailFor(server, email);
    for (let i = 0; i < INVITATION_CODE_MAX_ATTEMPTS + 1; i++) {
      expect((await acceptWithCode(server, { userId: mail.userId, token: mail.token, password: 'short', code: mail.code })).body.errorCode).toBe(ErrorCodes.passwordPolicy);
    }
    expect((await findInvitation(server.db, admin.tenantId, mail.userId))!.attempts).toBe(0);
    expect((await acceptWithCode(server, { userId: mail.userId, token: mail.token, password: NEW_PASSWORD, code: mail.code })).status).toBe(200);
  });
});
