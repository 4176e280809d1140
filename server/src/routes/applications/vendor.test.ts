/** The vendor's applications, managed by operators (issue 15): CRUD, logos, client links, audit, guard. */
import { ApplicationErrorCodes, ApplicationPaths, OperatorErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { auditsOf, callAs, pathOf, superUser, tenantWithAdmin } from '../../test/admin-helpers';
import { call, describeDialects } from '../../test/harness';
import { clientsFile, CONFIDENTIAL_CLIENT, PUBLIC_CLIENT } from '../../test/oauth-helpers';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const appPath = (appId: string) => pathOf(ApplicationPaths.application, { appId });

describeDialects('operator: vendor applications', (h) => {
  it('adds an application with an uploaded logo served from a public immutable URL, lists, changes and removes it, each change audited with old and new values', async () => {
    const server = await h.start({ OAUTH_CLIENTS_FILE: clientsFile() });
    const root = await superUser(server);
    const created = await callAs(server, root, 'POST', ApplicationPaths.applications, { body: { name: 'Notes', url: 'https://notes.example.com', logo: PNG, clientId: PUBLIC_CLIENT.clientId } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Notes', url: 'https://notes.example.com', accessType: 'FREE_ACCESS', clientId: PUBLIC_CLIENT.clientId });
    const logoUrl = created.body.logo as string;
    expect(logoUrl).toMatch(new RegExp(`^http://localhost:8787/applications/resources/applications/v1/logos/[0-9a-f]{32}$`));
    const logo = await call(server, 'GET', new URL(logoUrl).pathname);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('cache-control')).toContain('immutable');

    const listed = await callAs(server, root, 'GET', ApplicationPaths.applications);
    expect(listed.body).toContainEqual(created.body);
    expect((await callAs(server, root, 'GET', appPath(created.body.id))).body).toEqual(created.body);

    // An https address replaces the upload, whose URL then answers 404.
    const changed = await callAs(server, root, 'PATCH', appPath(created.body.id), { body: { accessType: 'MANAGED_ACCESS', logo: 'https://cdn.example.com/notes.png', clientId: null } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ accessType: 'MANAGED_ACCESS', logo: 'https://cdn.example.com/notes.png', clientId: null });
    expect((await call(server, 'GET', new URL(logoUrl).pathname)).status).toBe(404);
    // The same values again: nothing changes, nothing is recorded.
    const again = await callAs(server, root, 'PATCH', appPath(created.body.id), { body: { accessType: 'MANAGED_ACCESS' } });
    expect(again.body).toEqual(changed.body);

    expect((await callAs(server, root, 'DELETE', appPath(created.body.id))).status).toBe(204);
    expect((await callAs(server, root, 'GET', appPath(created.body.id))).status).toBe(404);
    expect((await callAs(server, root, 'DELETE', appPath(created.body.id))).status).toBe(404);

    const audits = (await auditsOf(server, root.tenantId)).filter((a) => a.action.startsWith('operator.vendor-application.')).reverse();
    expect(audits.map((a) => a.action)).toEqual(['operator.vendor-application.created', 'operator.vendor-application.updated', 'operator.vendor-application.deleted']);
    expect(JSON.parse(audits[1]!.json!)).toEqual({
      applicationId: created.body.id,
      old: { logo: logoUrl, accessType: 'FREE_ACCESS', clientId: PUBLIC_CLIENT.clientId },
      new: { logo: 'https://cdn.example.com/notes.png', accessType: 'MANAGED_ACCESS', clientId: null },
    });
    // A logo's bytes are never recorded.
    expect(JSON.stringify(audits)).not.toContain('iVBORw0KGgo');
  });

  it('refuses bad fields with a 400 naming them, an unregistered client (400), and a client already linked to another application (409 ER-05102)', async () => {
    const server = await h.start({ OAUTH_CLIENTS_FILE: clientsFile() });
    const root = await superUser(server);
    const post = (body: Record<string, unknown>) => callAs(server, root, 'POST', ApplicationPaths.applications, { body: { name: 'App', url: 'https://app.example.com', ...body } });
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ url: 'javascript:alert(1)' }, 'url'],
      [{ url: 'https://user:secret@app.example.com' }, 'url'],
      [{ logo: 'http://cdn.example.com/logo.png' }, 'logo'],
      [{ logo: `data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}` }, 'logo'],
      [{ logo: `data:image/png;base64,${Buffer.from('<html>').toString('base64')}` }, 'logo'],
      [{ accessType: 'SOMETIMES' }, 'accessType'],
      [{ clientId: 'nobody' }, 'clientId'],
      [{ extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.join(' '), JSON.stringify(body)).toContain(field);
    }
    expect(await server.db.selectFrom('applications').select('id').where('name', '=', 'App').execute()).toEqual([]);

    expect((await post({ clientId: CONFIDENTIAL_CLIENT.clientId })).status).toBe(201);
    const taken = await post({ clientId: CONFIDENTIAL_CLIENT.clientId });
    expect(taken.status).toBe(409);
    expect(taken.body.errorCode).toBe(ApplicationErrorCodes.clientLinked);
  });

  it('answers 403 ER-04001 to a tenant admin who is not a super user, and 401 without a sign-in, changing nothing', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const root = await superUser(server);
    const existing = await callAs(server, root, 'POST', ApplicationPaths.applications, { body: { name: 'App', url: 'https://app.example.com' } });
    const calls: [string, string, unknown?][] = [
      ['GET', ApplicationPaths.applications],
      ['POST', ApplicationPaths.applications, { name: 'Mine', url: 'https://mine.example.com' }],
      ['GET', appPath(existing.body.id)],
      ['PATCH', appPath(existing.body.id), { accessType: 'MANAGED_ACCESS' }],
      ['DELETE', appPath(existing.body.id)],
    ];
    for (const [method, path, body] of calls) {
      const res = await callAs(server, admin, method, path, body ? { body } : {});
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.errorCode).toBe(OperatorErrorCodes.notSuperUser);
      expect((await call(server, method, path, body ? { body } : {})).status, `${method} ${path} anonymous`).toBe(401);
    }
    const after = (await callAs(server, root, 'GET', ApplicationPaths.applications)).body as { id: string; name: string }[];
    expect(after).toContainEqual(existing.body);
    expect(after.map((a) => a.name)).not.toContain('Mine');
  });
});
