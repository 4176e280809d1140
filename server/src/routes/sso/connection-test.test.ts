/**
 * "Test connection" of an SSO configuration (issue 15): POST .../configurations/{configId}/test starts
 * a test sign-in at the IdP, the ACS checks the IdP's answer exactly as a real sign-in's and signs
 * nobody in, and GET .../test/{testId} answers the report once to the session that started it.
 * Over HTTP against the real database, with the xml-crypto test IdP signing real assertions.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SsoPaths, type SsoConfiguration, type SsoTestReport, type SsoTestStartResponse } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { auditsOf } from '../../test/admin-helpers';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { call, describeDialects, movableClock, signUpAndActivate } from '../../test/harness';
import { createTestSamlIdp, makeKeyPair, type AnswerOptions, type TestSamlIdp } from '../../test/saml-idp';
import { passwordSession, path, postToAcs, SAML_CALLBACK, ssoCounts, ssoEnv, startSso, tenantWithSso, type SsoTenant } from '../../test/sso-helpers';

let dns: TestDns;
let idp: TestSamlIdp;
beforeAll(async () => {
  dns = await startTestDns();
  idp = createTestSamlIdp();
});
afterAll(async () => {
  await dns?.stop();
});

const env = () => ssoEnv(dns, { RATE_LIMIT_LOGIN_PER_IP: '1000/600' });

/** A tenant with the test IdP's metadata, a validated domain, Support mapped from `support`; turned off unless `enabled`. */
async function samlTenant(server: GatehouseServer, enabled = false): Promise<SsoTenant> {
  const tenant = await tenantWithSso(server, dns, { type: 'saml', enabled }, async (token, configId) => {
    expect((await call(server, 'PUT', path(SsoPaths.metadata, { configId }), { token, body: { metadata: idp.metadata() } })).status).toBe(200);
  });
  const config = await call<SsoConfiguration>(server, 'GET', path(SsoPaths.configuration, { configId: tenant.configId }), { token: tenant.token });
  expect(config.body.enabled).toBe(enabled);
  return tenant;
}

const startTest = (server: GatehouseServer, tenant: Pick<SsoTenant, 'token' | 'configId'>, token = tenant.token) =>
  call<SsoTestStartResponse & { errors?: string[] }>(server, 'POST', path(SsoPaths.test, { configId: tenant.configId }), { token });
const readReport = (server: GatehouseServer, configId: string, testId: string, token: string) =>
  call<SsoTestReport>(server, 'GET', path(SsoPaths.testReport, { configId, testId }), { token });

/** Starts a test, lets the IdP read its AuthnRequest and answer; returns the test, the answer and the ACS post. */
async function runTest(server: GatehouseServer, tenant: SsoTenant, answer: Partial<AnswerOptions> = {}) {
  const started = await startTest(server, tenant);
  expect(started.status).toBe(201);
  const request = idp.readRequest(started.body.address);
  const spEntityId = `${server.config.publicUrl}${path(SsoPaths.samlMetadata, { configId: tenant.configId })}`;
  const response = idp.answer(request, spEntityId, { email: `jane@${tenant.domain}`, name: 'Jane Tester', groups: ['support', 'engineering'], ...answer });
  const acs = await postToAcs(server, tenant.configId, response, request.relayState ?? undefined);
  return { started: started.body, request, response, acs };
}

describeDialects('SSO Test connection', (h) => {
  it('reports a good assertion while the configuration is off: attributes, groups and the mappings they hit, problems; signs nobody in and is read once', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const before = await ssoCounts(server, tenant.domain);
    const { started, request, acs } = await runTest(server, tenant);
    // The AuthnRequest is ours: for this configuration's ACS, its ID the RelayState and the test id.
    expect(request.acsUrl).toBe(`${server.config.publicUrl}${path(SsoPaths.samlAcs, { configId: tenant.configId })}`);
    expect(request.relayState).toBe(started.testId);
    expect(request.id).toBe(started.testId);

    // The ACS answers a small page with a strict CSP, and sets no cookie.
    expect(acs.status).toBe(200);
    expect(acs.headers.get('content-type')).toMatch(/^text\/html/);
    expect(String(acs.body)).toContain('Test complete');
    expect(acs.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(acs.headers.get('set-cookie')).toBeNull();
    expect(acs.headers.get('location')).toBeNull();
    expect(await ssoCounts(server, tenant.domain)).toEqual(before);

    const report = await readReport(server, tenant.configId, started.testId, tenant.token);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({
      testId: started.testId,
      status: 'passed',
      error: null,
      subject: `jane@${tenant.domain}`,
      email: `jane@${tenant.domain}`,
      name: 'Jane Tester',
      groups: ['support', 'engineering'],
      roleMappings: [{ group: 'support', roleIds: [tenant.roles.Support] }],
      defaultRoleIds: [tenant.roles.ReadOnly],
    });
    expect(report.body.attributes).toEqual(
      expect.arrayContaining([{ name: 'email', values: [`jane@${tenant.domain}`] }, { name: 'name', values: ['Jane Tester'] }, { name: 'groups', values: ['support', 'engineering'] }]),
    );
    // `engineering` maps to nothing; the test IdP's certificate is made for 2 days.
    expect(report.body.problems).toEqual([
      { code: 'unknownGroups', severity: 'warning', values: ['engineering'] },
      { code: 'certificateExpiring', severity: 'warning', values: [expect.stringMatching(/^\d{4}-/)] },
    ]);
    // Read once.
    expect((await readReport(server, tenant.configId, started.testId, tenant.token)).status).toBe(404);
    expect(await ssoCounts(server, tenant.domain)).toEqual(before);
  });

  it('answers pending until the IdP answered, and reports an email outside the validated domains and a missing name', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const started = await startTest(server, tenant);
    const pending = await readReport(server, tenant.configId, started.body.testId, tenant.token);
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ status: 'pending', email: null, attributes: [], problems: [] });
    // Pending does not spend the test: the IdP's answer still counts.
    const request = idp.readRequest(started.body.address);
    const response = idp.answer(request, request.issuer, { email: 'jane@elsewhere.test', name: ' ', groups: [] });
    expect((await postToAcs(server, tenant.configId, response, request.relayState!)).status).toBe(200);
    const report = await readReport(server, tenant.configId, started.body.testId, tenant.token);
    expect(report.body).toMatchObject({ status: 'passed', email: 'jane@elsewhere.test', name: null, groups: [], roleMappings: [] });
    expect(report.body.problems.map((p) => [p.code, p.severity, p.values])).toEqual([
      ['emailDomainNotValidated', 'error', ['elsewhere.test']],
      ['missingAttributes', 'warning', ['name', 'groups']],
      ['certificateExpiring', 'warning', [expect.any(String)]],
    ]);
  });

  it('reports a forged, an expired and a wrong-audience assertion as failed with the reason, and creates nobody', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const cases: [Partial<AnswerOptions>, RegExp][] = [
      [{ signingKey: makeKeyPair('forger').key }, /signature/i],
      // node-saml finds the expired bearer confirmation first.
      [{ notBefore: Date.now() - 30 * 60_000, notOnOrAfter: Date.now() - 20 * 60_000 }, /expired|subject confirmation/i],
      [{ audience: 'https://other-sp.example.test/metadata' }, /audience/i],
      [{ tamperEmail: `ceo@${tenant.domain}` }, /signature/i],
    ];
    for (const [answer, reason] of cases) {
      const { started, acs } = await runTest(server, tenant, answer);
      expect(acs.status, JSON.stringify(answer)).toBe(200);
      const report = await readReport(server, tenant.configId, started.testId, tenant.token);
      expect(report.status).toBe(200);
      expect(report.body.status, JSON.stringify(answer)).toBe('failed');
      expect(report.body.error).toMatch(reason);
      expect(report.body).toMatchObject({ email: null, attributes: [], problems: [] });
    }
    expect((await ssoCounts(server, tenant.domain)).users).toBe(0);
  });

  it('answers the report only to the session that started it: another session of the same admin, another tenant or an unknown test get 404', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const other = await samlTenant(server);
    const { started } = await runTest(server, tenant);
    const secondSession = await passwordSession(server, tenant.adminEmail);
    expect((await readReport(server, tenant.configId, started.testId, secondSession)).status).toBe(404);
    expect((await readReport(server, tenant.configId, started.testId, other.token)).status).toBe(404);
    expect((await readReport(server, other.configId, started.testId, other.token)).status).toBe(404);
    expect((await readReport(server, tenant.configId, '_unknown', tenant.token)).status).toBe(404);
    // Another tenant cannot start a test of this configuration either.
    expect((await startTest(server, tenant, other.token)).status).toBe(404);
    // The refusals spent nothing: the session that started it still reads it, once.
    expect((await readReport(server, tenant.configId, started.testId, tenant.token)).body.status).toBe('passed');
  });

  it('answers 400 with the error body to a too long or blank test id, as its OpenAPI operation declares', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const long = await readReport(server, tenant.configId, `_${'a'.repeat(64)}`, tenant.token);
    expect(long.status).toBe(400);
    expect((long.body as unknown as { errors: string[] }).errors[0]).toMatch(/^testId/);
    const blank = await readReport(server, tenant.configId, ' ', tenant.token);
    expect(blank.status).toBe(400);
    expect((blank.body as unknown as { errors: string[] }).errors[0]).toMatch(/^testId/);
    const doc = (await call(server, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };
    const operation = doc.paths[SsoPaths.testReport]?.get;
    expect(operation?.responses['400']?.content?.['application/json']?.schema).toEqual(operation?.responses['404']?.content?.['application/json']?.schema);
    expect(operation?.responses['400']?.content?.['application/json']?.schema).toBeDefined();
  });

  it('is single use: a second answer to the same test, or the same response again, gets the no-longer-valid page and changes nothing', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const { started, request, response } = await runTest(server, tenant);
    const again = await postToAcs(server, tenant.configId, response, request.relayState!);
    expect(again.status).toBe(400);
    expect(String(again.body)).toContain('no longer valid');
    const other = idp.answer(request, request.issuer, { email: `eve@${tenant.domain}` });
    expect((await postToAcs(server, tenant.configId, other, request.relayState!)).status).toBe(400);
    const report = await readReport(server, tenant.configId, started.testId, tenant.token);
    expect(report.body).toMatchObject({ status: 'passed', email: `jane@${tenant.domain}` });
  });

  it("answers the IdP's post with a page in the admin's language (Accept-Language among en, de, es, he; Hebrew right to left), English otherwise", async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server);
    const acsIn = async (acceptLanguage: string) => {
      const started = await startTest(server, tenant);
      const request = idp.readRequest(started.body.address);
      const form = new URLSearchParams({ SAMLResponse: idp.answer(request, request.issuer, { email: `jane@${tenant.domain}` }), RelayState: request.relayState! });
      const post = () => call(server, 'POST', path(SsoPaths.samlAcs, { configId: tenant.configId }), {
        rawBody: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.example.test', 'accept-language': acceptLanguage },
      });
      const first = await post();
      expect(first.status).toBe(200);
      const again = await post();
      expect(again.status).toBe(400);
      await readReport(server, tenant.configId, started.body.testId, tenant.token);
      return { complete: String(first.body), invalid: String(again.body) };
    };
    const cases: [string, string, string, string][] = [
      ['en-US,en;q=0.9', '<html lang="en" dir="ltr">', 'Test complete', 'Test no longer valid'],
      ['de-DE,de;q=0.9,en;q=0.8', '<html lang="de" dir="ltr">', 'Test abgeschlossen', 'Test nicht mehr gültig'],
      ['fr-FR,es;q=0.8', '<html lang="es" dir="ltr">', 'Prueba completada', 'La prueba ya no es válida'],
      ['he-IL', '<html lang="he" dir="rtl">', 'הבדיקה הושלמה', 'הבדיקה כבר אינה תקפה'],
      // None of ours: English.
      ['fr-FR,ja;q=0.5', '<html lang="en" dir="ltr">', 'Test complete', 'Test no longer valid'],
    ];
    for (const [acceptLanguage, html, completeTitle, invalidTitle] of cases) {
      const page = await acsIn(acceptLanguage);
      expect(page.complete, acceptLanguage).toContain(html);
      expect(page.complete, acceptLanguage).toContain(`<h1>${completeTitle}</h1>`);
      expect(page.invalid, acceptLanguage).toContain(html);
      expect(page.invalid, acceptLanguage).toContain(`<h1>${invalidTitle}</h1>`);
    }
  });

  it('expires after 10 minutes: the IdP answer then finds no test, and the report is gone', async () => {
    const clock = movableClock();
    // Access tokens outlive the test here, so the same session asks after it expired.
    const server = await h.start({ ...env(), ACCESS_TOKEN_TTL: '3600' }, { clock });
    const tenant = await samlTenant(server);
    const started = await startTest(server, tenant);
    // The server's clock, not the test machine's: exactly 10 minutes from the start.
    expect(started.body.expiresAt).toBe(new Date(clock.now() + 10 * 60_000).toISOString());
    // And the same 10 minutes from the answer, for a browser whose clock is not the server's.
    expect(started.body.expiresInMs).toBe(10 * 60_000);
    clock.advance(10 * 60_000 + 1);
    const request = idp.readRequest(started.body.address);
    const acs = await postToAcs(server, tenant.configId, idp.answer(request, request.issuer, { email: `jane@${tenant.domain}` }), request.relayState!);
    expect(acs.status).toBe(400);
    expect((await readReport(server, tenant.configId, started.body.testId, tenant.token)).status).toBe(404);
  });

  it('can never sign anyone in: its response posted as a real sign-in (no RelayState, or a real sign-in\'s) is refused, with SSO turned on', async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server, true);
    const started = await startTest(server, tenant);
    const request = idp.readRequest(started.body.address);
    const response = idp.answer(request, request.issuer, { email: `jane@${tenant.domain}` });
    // Without RelayState the ACS treats it as a sign-in: InResponseTo names no pending sign-in.
    const bare = await postToAcs(server, tenant.configId, response);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('set-cookie')).toBeNull();
    // With a real sign-in's RelayState: refused back to the login box, with no code.
    const real = await startSso(server, 'saml', `jane@${tenant.domain}`);
    const realRequest = idp.readRequest(real.address);
    const refused = await postToAcs(server, tenant.configId, response, realRequest.relayState!);
    expect(refused.status).toBe(303);
    const target = new URL(refused.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe(SAML_CALLBACK);
    expect(target.searchParams.get('error')).toBe('sso_failed');
    expect(target.searchParams.get('code')).toBeNull();
    expect(await ssoCounts(server, tenant.domain)).toMatchObject({ users: 0 });
    // The test itself was not spent by those attempts.
    expect((await postToAcs(server, tenant.configId, response, request.relayState!)).status).toBe(200);
    expect((await readReport(server, tenant.configId, started.body.testId, tenant.token)).body.status).toBe('passed');
  });

  it("a real sign-in's response cannot pass as a test: posted with the test's RelayState it is reported failed (InResponseTo), and gives no code", async () => {
    const server = await h.start(env());
    const tenant = await samlTenant(server, true);
    const started = await startTest(server, tenant);
    const real = await startSso(server, 'saml', `jane@${tenant.domain}`);
    const realRequest = idp.readRequest(real.address);
    const realResponse = idp.answer(realRequest, realRequest.issuer, { email: `jane@${tenant.domain}` });
    const acs = await postToAcs(server, tenant.configId, realResponse, started.body.testId);
    expect(acs.status).toBe(200);
    expect(acs.headers.get('location')).toBeNull();
    const report = await readReport(server, tenant.configId, started.body.testId, tenant.token);
    expect(report.body.status).toBe('failed');
    expect(report.body.error).toMatch(/InResponseTo/);
    expect(await ssoCounts(server, tenant.domain)).toMatchObject({ users: 0 });
  });

  it('is refused before the IdP is set, naming the field that is missing (entity id, sign-in URL or certificate); starting is audited in the tenant', async () => {
    const server = await h.start(env());
    const admin = await signUpAndActivate(server);
    const created = await call<SsoConfiguration>(server, 'POST', SsoPaths.configurations, { token: admin.accessToken, body: { type: 'saml' } });
    const bare = await startTest(server, { token: admin.accessToken, configId: created.body.id });
    expect(bare.status).toBe(400);
    expect(bare.body.errors?.[0]).toBe('idpEntityId: the identity provider (sign-in URL, entity id and certificate) is not set yet');
    // Entered by hand, each field the IdP lacks is the one named.
    const entered: [Record<string, unknown>, string][] = [
      [{ ssoEndpoint: idp.ssoUrl, publicCertificate: idp.keys.cert }, 'idpEntityId'],
      [{ idpEntityId: idp.entityId, publicCertificate: idp.keys.cert }, 'ssoEndpoint'],
      [{ idpEntityId: idp.entityId, ssoEndpoint: idp.ssoUrl }, 'publicCertificate'],
    ];
    for (const [i, [fields, missing]] of entered.entries()) {
      const config = await call<SsoConfiguration>(server, 'POST', SsoPaths.configurations, { token: admin.accessToken, body: { type: 'saml' } });
      const saved = await call(server, 'PUT', path(SsoPaths.saml, { configId: config.body.id }), { token: admin.accessToken, body: { domain: `manual${i}.example.test`, ...fields } });
      expect(saved.status, missing).toBe(200);
      const refused = await startTest(server, { token: admin.accessToken, configId: config.body.id });
      expect(refused.status, missing).toBe(400);
      expect(refused.body.errors?.[0]).toBe(`${missing}: the identity provider (sign-in URL, entity id and certificate) is not set yet`);
    }

    const tenant = await samlTenant(server);
    const { started } = await runTest(server, tenant);
    const audit = (await auditsOf(server, tenant.tenantId)).find((a) => a.action === 'SSO connection test started');
    expect(audit).toBeDefined();
    expect(JSON.parse(String(audit!.json))).toMatchObject({ configId: tenant.configId, testId: started.testId, enabled: false });
  });
});
