/** The connection test's report rules (buildTestReport, claimsAsAttributes), on a verified response's or ID token's content. */
import { describe, expect, it } from 'vitest';
import { makeKeyPair } from '../../test/saml-idp';
import { buildTestReport, claimsAsAttributes } from './connection-test';

const certBody = (pem: string) => pem.replace(/-----[^-]+-----|\s+/g, '');
const NOW = Date.now();
const row = (cert = makeKeyPair().cert) => ({ default_role_ids: '["r-default"]', idp_certificates: JSON.stringify([certBody(cert)]) });
const domains = [{ domain: 'acme.test', validated: 1 }, { domain: 'pending.test', validated: 0 }];
const mappings = [{ group_name: 'support', role_ids: '["r-support"]' }];

describe('SSO connection test report', () => {
  it('says the email is missing when the assertion names none (NameID not an email, no email attribute): sign-ins would be refused', () => {
    const report = buildTestReport({ row: row(), domains, mappings, now: NOW, verified: { identity: null, nameId: 'opaque-42', attributes: [{ name: 'department', values: ['R&D'] }] } });
    expect(report).toMatchObject({ status: 'passed', subject: 'opaque-42', email: null, groups: [], roleMappings: [], defaultRoleIds: ['r-default'] });
    expect(report.problems[0]).toEqual({ code: 'noEmail', severity: 'error', values: [] });
  });

  it("counts only validated domains: an email of a pending domain is an error", () => {
    const identity = { subject: 's', email: 'jo@pending.test', name: 'Jo', groups: ['support'] };
    const report = buildTestReport({ row: row(), domains, mappings, now: NOW, verified: { identity, nameId: 's', attributes: [] } });
    expect(report.problems.filter((p) => p.code !== 'certificateExpiring')).toEqual([{ code: 'emailDomainNotValidated', severity: 'error', values: ['pending.test'] }]);
    expect(report.roleMappings).toEqual([{ group: 'support', roleIds: ['r-support'] }]);
  });

  it('flags an expired IdP certificate as an error and one expiring within 30 days as a warning', () => {
    const identity = { subject: 's', email: 'jo@acme.test', name: 'Jo', groups: ['support'] };
    const verified = { identity, nameId: 's', attributes: [] };
    // The test key pair's certificate is made for 2 days.
    expect(buildTestReport({ row: row(), domains, mappings, now: NOW, verified }).problems).toEqual([{ code: 'certificateExpiring', severity: 'warning', values: [expect.any(String)] }]);
    expect(buildTestReport({ row: row(), domains, mappings, now: NOW + 3 * 24 * 3600_000, verified }).problems.map((p) => [p.code, p.severity])).toEqual([['certificateExpired', 'error']]);
    expect(buildTestReport({ row: row(), domains, mappings, now: NOW - 40 * 24 * 3600_000, verified }).problems).toEqual([]);
  });

  it('OIDC: an email the IdP says is not verified is an error naming the address (sign-ins refuse it), not a missing email', () => {
    const oidcRow = { default_role_ids: '[]', idp_certificates: null };
    const report = buildTestReport({ row: oidcRow, domains, mappings, now: NOW, verified: { identity: null, nameId: 'sub-1', attributes: [], emailNotVerified: 'jo@acme.test' } });
    expect(report.problems).toEqual([{ code: 'emailNotVerified', severity: 'error', values: ['jo@acme.test'] }]);
    // No certificate on an OIDC configuration: nothing about certificates.
    const fine = buildTestReport({ row: oidcRow, domains, mappings: [], now: NOW, verified: { identity: { subject: 'sub-1', email: 'jo@acme.test', name: 'Jo', groups: [] }, nameId: 'sub-1', attributes: [] } });
    expect(fine.problems).toEqual([]);
  });

  it("OIDC: claims become attributes with text values (lists kept, objects as JSON, null as none), the protocol's nonce and hashes left out, bounded", () => {
    const attributes = claimsAsAttributes({ sub: 'u1', email_verified: true, groups: ['a', 'b'], address: { country: 'DE' }, middle_name: null, nonce: 'n', at_hash: 'h', note: 'x'.repeat(600) });
    expect(attributes).toEqual([
      { name: 'sub', values: ['u1'] },
      { name: 'email_verified', values: ['true'] },
      { name: 'groups', values: ['a', 'b'] },
      { name: 'address', values: ['{"country":"DE"}'] },
      { name: 'middle_name', values: [] },
      { name: 'note', values: ['x'.repeat(512)] },
    ]);
    const many = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`c${i}`, Array.from({ length: 80 }, () => 'v')]));
    const bounded = claimsAsAttributes(many);
    expect(bounded).toHaveLength(100);
    expect(bounded[0]!.values).toHaveLength(50);
  });
});
