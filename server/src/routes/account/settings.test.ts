import { AccountPaths, AdminPaths, ApiPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { activeMember, auditsOf, callAs, memberWithoutPermissions, roleIdByKey, tenantWithAdmin } from '../../test/admin-helpers';
import { call, describeDialects } from '../../test/harness';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const settingsPath = AccountPaths.accountSettings;
const pathOfUrl = (url: string) => new URL(url).pathname;

describeDialects('account settings', (harness) => {
  const h = { start: () => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' }) };

  it('answers the defaults, saves the settings tab fields, renames the tenant and writes one audit row per save', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const initial = await callAs(server, admin, 'GET', settingsPath);
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({ tenantId: admin.tenantId, website: null, address: null, timezone: 'UTC', dateFormat: 'MM/DD/YYYY', timeFormat: 'h:mm A', currency: 'USD', logo: null, hasCustomLogin: false, applicationUrl: null, updatedAt: null });
    const auditsBefore = (await auditsOf(server, admin.tenantId)).length;

    const saved = await callAs(server, admin, 'PUT', settingsPath, {
      body: { companyName: '  Acme Corp ', website: 'https://acme.example.com', address: '1 Main St, Springfield', timezone: 'Europe/Paris', dateFormat: 'DD/MM/YYYY', timeFormat: 'HH:mm', currency: 'EUR' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ companyName: 'Acme Corp', website: 'https://acme.example.com', address: '1 Main St, Springfield', timezone: 'Europe/Paris', dateFormat: 'DD/MM/YYYY', timeFormat: 'HH:mm', currency: 'EUR' });
    expect((await callAs(server, admin, 'GET', settingsPath)).body).toEqual(saved.body);
    // The company name is the tenant's name, everywhere the tenant is named.
    expect((await callAs(server, admin, 'GET', ApiPaths.meTenantsV3)).body.activeTenant.name).toBe('Acme Corp');

    const audits = await auditsOf(server, admin.tenantId);
    expect(audits.length - auditsBefore).toBe(1);
    expect(audits[0]).toMatchObject({ action: 'Account settings updated', user_id: admin.userId });
    const json = JSON.parse(audits[0]!.json!);
    expect(json.fields).toEqual(['companyName', 'website', 'address', 'timezone', 'dateFormat', 'timeFormat', 'currency']);
    expect(json.changes.timezone).toEqual({ from: 'UTC', to: 'Europe/Paris' });

    // Only the fields sent change; empty clears an optional field.
    const cleared = await callAs(server, admin, 'PUT', settingsPath, { body: { website: '', address: null } });
    expect(cleared.body).toMatchObject({ companyName: 'Acme Corp', website: null, address: null, timezone: 'Europe/Paris', currency: 'EUR' });
  });

  it('writes nothing when a save changes nothing (the portal says "No changes to update")', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    await callAs(server, admin, 'PUT', settingsPath, { body: { hasCustomLogin: true, loginTitle: 'Welcome to Acme', loginColor: '#3366FF', applicationUrl: 'https://app.acme.example.com' } });
    const before = await auditsOf(server, admin.tenantId);
    const current = (await callAs(server, admin, 'GET', settingsPath)).body;
    expect(current).toMatchObject({ hasCustomLogin: true, loginTitle: 'Welcome to Acme', loginColor: '#3366ff', applicationUrl: 'https://app.acme.example.com' });
    const again = await callAs(server, admin, 'PUT', settingsPath, { body: { hasCustomLogin: true, loginTitle: 'Welcome to Acme', loginColor: '#3366ff', applicationUrl: 'https://app.acme.example.com', timezone: 'UTC' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(current);
    expect(await auditsOf(server, admin.tenantId)).toHaveLength(before.length);
  });

  it('refuses invalid fields with a message naming the field, and changes nothing', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    await callAs(server, admin, 'PUT', settingsPath, { body: { companyName: 'Kept', website: 'https://kept.example.com' } });
    const before = (await callAs(server, admin, 'GET', settingsPath)).body;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ website: 'not a web address' }, /^website: .*http/],
      [{ website: 'javascript:alert(1)' }, /^website: /],
      [{ applicationUrl: 'ftp://files.example.com' }, /^applicationUrl: /],
      [{ timezone: 'Mars/Olympus_Mons' }, /^timezone: .*IANA/],
      [{ currency: 'XYZ' }, /^currency: .*ISO 4217/],
      [{ currency: 'usd' }, /^currency: /],
      [{ dateFormat: 'yyyy' }, /^dateFormat: /],
      [{ timeFormat: 'hh' }, /^timeFormat: /],
      [{ companyName: '   ' }, /^companyName: /],
      [{ companyName: 'x'.repeat(101) }, /^companyName: /],
      [{ loginColor: 'red' }, /^loginColor: /],
      [{ hasCustomLogin: 'yes' }, /^hasCustomLogin: /],
      [{ tenantId: 'someone-else' }, /tenantId/],
      [{ companyName: 'Ok', timezone: 'Nowhere/Land' }, /^timezone: /],
    ];
    for (const [body, message] of cases) {
      const res = await callAs(server, admin, 'PUT', settingsPath, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errorCode, JSON.stringify(body)).toBe('ER-01001');
      expect(res.body.errors.join(' '), JSON.stringify(body)).toMatch(message);
    }
    expect((await callAs(server, admin, 'GET', settingsPath)).body).toEqual(before);
  });

  it('stores a logo like a profile picture: checked bytes, an immutable sandboxed URL, never SVG', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64')}`;
    expect((await callAs(server, admin, 'PUT', settingsPath, { body: { logo: svg } })).status).toBe(400);
    const fake = `data:image/png;base64,${Buffer.from('<html><script>alert(1)</script></html>').toString('base64')}`;
    const notPng = await callAs(server, admin, 'PUT', settingsPath, { body: { logo: fake } });
    expect([notPng.status, notPng.body.errorCode]).toEqual([400, 'ER-01017']);
    const huge = `data:image/png;base64,${Buffer.concat([Buffer.from(PNG.split(',')[1]!, 'base64'), Buffer.alloc(600 * 1024)]).toString('base64')}`;
    const tooBig = await callAs(server, admin, 'PUT', settingsPath, { body: { logo: huge } });
    expect(tooBig.status).toBe(400);

    const first = await callAs(server, admin, 'PUT', settingsPath, { body: { logo: PNG } });
    expect(first.status).toBe(200);
    expect(first.body.logo).toMatch(/\/tenants\/resources\/account-settings\/v1\/logo\/[0-9a-f]{32}$/);
    const image = await server.fetch(new Request(first.body.logo));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-security-policy')).toContain('sandbox');
    expect(image.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await image.arrayBuffer()).equals(Buffer.from(PNG.split(',')[1]!, 'base64'))).toBe(true);

    const second = await callAs(server, admin, 'PUT', settingsPath, { body: { logo: PNG } });
    expect(second.body.logo).not.toBe(first.body.logo);
    expect((await call(server, 'GET', pathOfUrl(first.body.logo))).status).toBe(404);
    const audit = (await auditsOf(server, admin.tenantId))[0]!;
    expect(JSON.parse(audit.json!)).toEqual({ fields: ['logo'], changes: { logo: 'set' } });
    expect(audit.json).not.toContain('base64');

    const removed = await callAs(server, admin, 'PUT', settingsPath, { body: { logo: null } });
    expect(removed.body.logo).toBeNull();
    expect((await call(server, 'GET', pathOfUrl(second.body.logo))).status).toBe(404);
  });

  it('lets readers read but not save, and refuses members without the permission', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const reader = await activeMember(server, admin);
    expect((await callAs(server, admin, 'PUT', AdminPaths.teamMembers, { body: { id: reader.userId, roleIds: [await roleIdByKey(server, admin, 'Support')] } })).status).toBe(200);
    const signedIn = (await call(server, 'POST', ApiPaths.login, { body: { email: reader.email, password: reader.password } })).body.accessToken as string;
    const asReader = { ...reader, accessToken: signedIn };
    expect((await callAs(server, asReader, 'GET', settingsPath)).status).toBe(200);
    const refused = await callAs(server, asReader, 'PUT', settingsPath, { body: { companyName: 'Hijacked' } });
    expect([refused.status, refused.body.errorCode]).toEqual([403, 'ER-01005']);

    const plain = await memberWithoutPermissions(server, admin.tenantId);
    expect((await callAs(server, plain, 'GET', settingsPath, { tenantId: admin.tenantId })).status).toBe(403);
    expect((await callAs(server, plain, 'PUT', settingsPath, { tenantId: admin.tenantId, body: { companyName: 'Hijacked' } })).status).toBe(403);
    expect((await call(server, 'GET', settingsPath)).status).toBe(401);
    expect((await callAs(server, admin, 'GET', settingsPath)).body.companyName).not.toBe('Hijacked');
  });

  it('answers the public view without sign-in, with the login look only while custom login is on and nothing private', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const publicPath = `${AccountPaths.accountSettingsPublic}?tenantId=${admin.tenantId}`;
    await callAs(server, admin, 'PUT', settingsPath, {
      body: { companyName: 'Acme Public', website: 'https://private.example.com', address: '42 Secret Lane', timezone: 'Asia/Tokyo', currency: 'JPY', loginTitle: 'Sign in to Acme', loginColor: '#112233', applicationUrl: 'https://app.acme.example.com', logo: PNG },
    });
    const off = await call(server, 'GET', publicPath);
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ companyName: 'Acme Public', logo: expect.stringContaining('/logo/'), hasCustomLogin: false, applicationUrl: 'https://app.acme.example.com', loginTitle: null, loginColor: null });
    await callAs(server, admin, 'PUT', settingsPath, { body: { hasCustomLogin: true } });
    const on = await call(server, 'GET', publicPath);
    expect(on.body).toMatchObject({ hasCustomLogin: true, loginTitle: 'Sign in to Acme', loginColor: '#112233' });
    const text = JSON.stringify(on.body);
    for (const secret of ['private.example.com', 'Secret Lane', 'Asia/Tokyo', 'JPY', admin.email, admin.userId]) expect(text).not.toContain(secret);

    const nobody = { companyName: null, logo: null, hasCustomLogin: false, applicationUrl: null, loginTitle: null, loginColor: null };
    expect((await call(server, 'GET', AccountPaths.accountSettingsPublic)).body).toEqual(nobody);
    expect((await call(server, 'GET', `${AccountPaths.accountSettingsPublic}?tenantId=unknown`)).body).toEqual(nobody);
  });
});
