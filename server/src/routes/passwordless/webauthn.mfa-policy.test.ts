/**
 * The tenant's MFA policy at passkey sign-in (issue 12): a passkey proves two factors (the device and
 * its user verification), so a tenant that forces MFA lets a passkey sign-in through, and hosted login
 * accepts its session; the password alone still stops at the MFA step.
 */
import { ApiPaths, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, signIn } from '../../test/admin-helpers';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';
import { clientsFile, codeFor, exchange } from '../../test/oauth-helpers';
import { SoftAuthenticator } from '../../test/soft-authenticator';

describeDialects('MFA policy at passkey sign-in', (h) => {
  it('a passkey sign-in meets a forced MFA policy, at the sign-in and at hosted login; the password alone does not', async () => {
    const server = await h.start({ RATE_LIMIT_LOGIN_PER_IP: '1000/600', OAUTH_CLIENTS_FILE: clientsFile() });
    const user = await signUpAndActivate(server);
    const authenticator = new SoftAuthenticator();
    const options = await call(server, 'POST', ApiPaths.webauthnDevices, { token: user.accessToken });
    expect((await call(server, 'POST', ApiPaths.webauthnDevicesVerify, { token: user.accessToken, body: { credential: authenticator.create(options.body.options), name: 'Laptop' } })).status).toBe(201);
    expect((await callAs(server, user, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType: 'Force' } })).status).toBe(200);

    expect((await signIn(server, user.email)).body).toMatchObject({ mfaRequired: true, accessToken: '' });
    const pre = await call(server, 'POST', ApiPaths.webauthnPreLogin, { body: {} });
    const passkey = await call(server, 'POST', ApiPaths.webauthnPostLogin, { body: { credential: authenticator.get(pre.body.options) } });
    expect(passkey.status).toBe(200);
    expect(passkey.body.mfaRequired).toBe(false);
    const { code, verifier } = await codeFor(server, passkey.body.accessToken);
    expect((await exchange(server, code, verifier)).status).toBe(200);
  });
});
