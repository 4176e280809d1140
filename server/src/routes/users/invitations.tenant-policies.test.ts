/**
 * The joined tenant's password rules at invitation acceptance, and the password history every new
 * password joins (activation, invitation), on both dialects (issue 12).
 */
import { AdminPaths, ApiPaths, ErrorCodes, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, inviteMember, tenantWithAdmin } from '../../test/admin-helpers';
import { call, describeDialects, PASSWORD, uniqueEmail } from '../../test/harness';
import { invitationMailFor } from '../../test/invitation-helpers';

const ROOMY = { RATE_LIMIT_SIGNUP_PER_IP: '1000/60' };
const LONG = 'a passphrase long enough for the tenant';

describeDialects("tenant password rules at invitation and activation", (h) => {
  it("accepts an invitation only with a password the joined tenant's rules allow, and remembers it in the history", async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const outsider = await tenantWithAdmin(server, 'outsider');
    expect((await callAs(server, admin, 'PATCH', SecurityPaths.passwordPolicy, { body: { minLength: 30, minPhraseLength: 30 } })).status).toBe(200);

    const { email } = await inviteMember(server, admin);
    const mail = await invitationMailFor(server, email);
    const accept = (password: string) => call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token, password } });
    const refused = await accept(PASSWORD);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errorCode: ErrorCodes.passwordPolicy, errors: ['Password must be at least 30 characters long'] });
    // The refusal kept the invitation: the same link takes a longer password.
    const accepted = await accept(LONG);
    expect(accepted.status).toBe(200);
    expect(accepted.body.outcome).toBe('signedIn');
    const history = await server.db.selectFrom('password_history').select('password_hash').where('user_id', '=', mail.userId).execute();
    expect(history).toHaveLength(1);
    expect(history[0]!.password_hash.startsWith('$argon2id$')).toBe(true);

    // The other tenant keeps the vendor's rules.
    const other = await inviteMember(server, outsider);
    const otherMail = await invitationMailFor(server, other.email);
    expect((await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: otherMail.userId, token: otherMail.token, password: PASSWORD } })).status).toBe(200);
  });

  it('accepting an invitation into a tenant that forces MFA stops at the MFA step instead of signing in', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    expect((await callAs(server, admin, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType: 'Force' } })).status).toBe(200);
    const { email } = await inviteMember(server, admin);
    const mail = await invitationMailFor(server, email);
    const accepted = await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token, password: PASSWORD } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.authResponse).toMatchObject({ mfaRequired: true, mfaEnrolled: false, accessToken: '' });
    expect(accepted.refreshCookie).toBeUndefined();
  });

  it("a sign-up through the tenant's invite link needs a password the tenant's rules allow; a plain sign-up the vendor's", async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    expect((await callAs(server, admin, 'PATCH', SecurityPaths.passwordPolicy, { body: { minLength: 30, minPhraseLength: 30 } })).status).toBe(200);
    const link = await callAs(server, admin, 'POST', AdminPaths.inviteLink, { body: {} });
    const signUp = (password: string, extra: Record<string, unknown> = {}) => call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail('joiner'), password, name: 'Joiner', ...extra } });
    const refused = await signUp(PASSWORD, { invitationToken: link.body.token });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errorCode: ErrorCodes.passwordPolicy, errors: ['Password must be at least 30 characters long'] });
    expect((await signUp(LONG, { invitationToken: link.body.token })).status).toBe(200);
    expect((await signUp(PASSWORD)).status).toBe(200);
  });

  it('activation remembers the first password in the history', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const rows = await server.db.selectFrom('password_history').select(['password_hash', 'created_at']).where('user_id', '=', admin.userId).execute();
    expect(rows).toHaveLength(1);
    const user = await server.db.selectFrom('users').select('password_hash').where('id', '=', admin.userId).executeTakeFirstOrThrow();
    expect(rows[0]!.password_hash).toBe(user.password_hash);
  });
});
