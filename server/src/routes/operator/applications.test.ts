import { OperatorPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { auditsOf, callAs, pathOf, superUser } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';
import { basicAuth, clientsFile, CONFIDENTIAL_CLIENT, PUBLIC_CLIENT, tokenCall } from '../../test/oauth-helpers';

const appPath = (clientId: string) => pathOf(OperatorPaths.application, { clientId });
const secretPath = (clientId: string) => pathOf(OperatorPaths.applicationSecret, { clientId });
const refresh = { grant_type: 'refresh_token', refresh_token: 'unknown' };

describeDialects('operator OAuth applications', (h) => {
  it('registers a confidential application whose secret is answered once and stored hashed, lists it beside the file\'s read-only ones, changes its URIs, rotates its secret and removes it, each change audited without the secret', async () => {
    const server = await h.start({ OAUTH_CLIENTS_FILE: clientsFile() });
    const root = await superUser(server);
    const created = await callAs(server, root, 'POST', OperatorPaths.applications, { body: { clientId: 'billing-backend', name: 'Billing', redirectUris: ['https://billing.example.com/cb'], confidential: true } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ clientId: 'billing-backend', name: 'Billing', redirectUris: ['https://billing.example.com/cb'], postLogoutRedirectUris: [], confidential: true, source: 'database', clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const secret = created.body.clientSecret as string;
    const row = await server.db.selectFrom('oauth_clients').selectAll().where('client_id', '=', 'billing-backend').executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    // The secret authenticates at the token endpoint (past client authentication, to the grant check).
    expect((await tokenCall(server, refresh, { authorization: basicAuth('billing-backend', secret) })).body.error).toBe('invalid_grant');

    const listed = await callAs(server, root, 'GET', OperatorPaths.applications);
    expect(listed.status).toBe(200);
    const bySource = Object.fromEntries((listed.body as { clientId: string; source: string }[]).map((a) => [a.clientId, a.source]));
    expect(bySource).toMatchObject({ [PUBLIC_CLIENT.clientId]: 'file', [CONFIDENTIAL_CLIENT.clientId]: 'file', 'billing-backend': 'database', 'demo-spa': 'dev' });
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(JSON.stringify(listed.body)).not.toContain('clientSecret');
    const { clientSecret: _s, ...withoutSecret } = created.body;
    expect((await callAs(server, root, 'GET', appPath('billing-backend'))).body).toEqual(withoutSecret);

    const changed = await callAs(server, root, 'PATCH', appPath('billing-backend'), { body: { redirectUris: ['https://billing.example.com/callback'], postLogoutRedirectUris: ['http://localhost:3000/bye'] } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Billing', redirectUris: ['https://billing.example.com/callback'], postLogoutRedirectUris: ['http://localhost:3000/bye'], confidential: true });

    const rotated = await callAs(server, root, 'POST', secretPath('billing-backend'));
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.clientSecret as string;
    expect(newSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSecret).not.toBe(secret);
    expect((await tokenCall(server, refresh, { authorization: basicAuth('billing-backend', secret) })).body.error).toBe('invalid_client');
    expect((await tokenCall(server, refresh, { authorization: basicAuth('billing-backend', newSecret) })).body.error).toBe('invalid_grant');

    expect((await callAs(server, root, 'DELETE', appPath('billing-backend'))).status).toBe(204);
    expect((await callAs(server, root, 'GET', appPath('billing-backend'))).status).toBe(404);
    expect((await tokenCall(server, refresh, { authorization: basicAuth('billing-backend', newSecret) })).body.error).toBe('invalid_client');

    const audits = (await auditsOf(server, root.tenantId)).filter((a) => a.action.startsWith('operator.application.')).reverse();
    expect(audits.map((a) => a.action)).toEqual(['operator.application.created', 'operator.application.updated', 'operator.application.secret-rotated', 'operator.application.deleted']);
    expect(JSON.parse(audits[1]!.json!)).toMatchObject({ old: { redirectUris: ['https://billing.example.com/cb'] }, new: { redirectUris: ['https://billing.example.com/callback'] } });
    expect(JSON.parse(audits[2]!.json!)).toEqual({ clientId: 'billing-backend', secretRotated: true });
    const everything = JSON.stringify(await auditsOf(server, root.tenantId));
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(newSecret);
  });

  it('keeps file and dev applications read-only (409 ER-04007), refuses a taken clientId (409), a bad redirect URI (400 naming it) and a secret for a public application', async () => {
    const server = await h.start({ OAUTH_CLIENTS_FILE: clientsFile() });
    const root = await superUser(server);
    for (const clientId of [PUBLIC_CLIENT.clientId, 'demo-spa']) {
      const patch = await callAs(server, root, 'PATCH', appPath(clientId), { body: { name: 'Mine now' } });
      expect([patch.status, patch.body.errorCode]).toEqual([409, 'ER-04007']);
      expect((await callAs(server, root, 'DELETE', appPath(clientId))).status).toBe(409);
    }
    expect((await callAs(server, root, 'POST', secretPath(CONFIDENTIAL_CLIENT.clientId))).body.errorCode).toBe('ER-04007');
    // The file's secret still works: nothing was rotated.
    expect((await tokenCall(server, refresh, { authorization: basicAuth(CONFIDENTIAL_CLIENT.clientId, CONFIDENTIAL_CLIENT.secret) })).body.error).toBe('invalid_grant');

    const taken = await callAs(server, root, 'POST', OperatorPaths.applications, { body: { clientId: PUBLIC_CLIENT.clientId, redirectUris: ['https://x.example.com/cb'] } });
    expect([taken.status, taken.body.errorCode]).toEqual([409, 'ER-04003']);
    const http = await callAs(server, root, 'POST', OperatorPaths.applications, { body: { clientId: 'spa-two', redirectUris: ['http://app.example.com/cb'] } });
    expect([http.status, http.body.errors[0]]).toEqual([400, 'client "spa-two": the redirect URI "http://app.example.com/cb" must be https (http only on localhost, 127.0.0.1 or [::1]).']);
    const none = await callAs(server, root, 'POST', OperatorPaths.applications, { body: { clientId: 'spa-two', redirectUris: [] } });
    expect([none.status, none.body.errors[0]]).toEqual([400, expect.stringMatching(/^redirectUris: /)]);

    const spa = await callAs(server, root, 'POST', OperatorPaths.applications, { body: { clientId: 'spa-two', redirectUris: ['https://app.example.com/cb'] } });
    expect([spa.status, spa.body.confidential, 'clientSecret' in spa.body]).toEqual([201, false, false]);
    const noSecret = await callAs(server, root, 'POST', secretPath('spa-two'));
    expect([noSecret.status, noSecret.body.errors[0]]).toEqual([400, 'clientId: "spa-two" is a public application (PKCE only) and has no secret']);
    const badPatch = await callAs(server, root, 'PATCH', appPath('spa-two'), { body: { redirectUris: ['https://app.example.com/cb#frag'] } });
    expect(badPatch.status).toBe(400);
    expect((await callAs(server, root, 'GET', appPath('spa-two'))).body.redirectUris).toEqual(['https://app.example.com/cb']);
    expect((await callAs(server, root, 'GET', appPath('nobody'))).body.errorCode).toBe('ER-04004');
  });
});
