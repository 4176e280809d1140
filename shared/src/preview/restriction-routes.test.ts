import { describe, expect, it } from 'vitest';
import { createApiClient } from '../api/client';
import { AuditPaths } from '../wire/admin/audit-paths';
import { AuditsResponse } from '../wire/admin/audits';
import {
  EmailDomainRestriction, EmailDomainRestrictionConfig, EmailDomainRestrictionList, IpRestriction, IpRestrictionConfig, IpRestrictionList, IpVerifyResponse, SecurityPaths,
} from '../wire/security/restrictions';
import { isGatehouseError } from '../errors';
import { createPreviewFetch } from './preview-api';

const BASE = 'https://auth.example.test/api';

function setup() {
  const fetch = createPreviewFetch({ baseUrl: BASE, now: () => Date.UTC(2026, 1, 20, 15), sleep: async () => {} });
  const api = createApiClient({ baseUrl: BASE, clientId: 'preview', getAccessToken: () => 'preview-access-token', fetch, retry: { attempts: 1 } });
  const lastAudit = async () => AuditsResponse.parse(await api.request('GET', AuditPaths.audits)).data[0];
  const ipList = async (query: Record<string, number> = {}) => IpRestrictionList.parse(await api.request('GET', SecurityPaths.ipRestrictions, { query }));
  return { api, lastAudit, ipList };
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!isGatehouseError(error)) throw new Error(`expected a GatehouseError, got ${String(error)}`);
  return [error.statusCode, error.message];
}

describe('preview IP restrictions', () => {
  it('reads the sample config and entries a page at a time, and says the visitor is allowed', async () => {
    const { api, ipList } = setup();
    expect(IpRestrictionConfig.parse(await api.request('GET', SecurityPaths.ipRestrictionsConfig))).toEqual({ isActive: false, strategy: 'ALLOW' });
    expect((await ipList()).items.map((e) => e.ip)).toEqual(['198.51.100.0/24', '203.0.113.10']);
    expect(await ipList({ offset: 1, limit: 1 })).toMatchObject({ total: 2, items: [{ description: 'VPN' }] });
    expect(IpVerifyResponse.parse(await api.request('POST', SecurityPaths.ipRestrictionsVerify))).toEqual({ allowed: true, ip: '203.0.113.10' });
  });

  it('adds, edits and removes an entry, adds "My IP", and saves the config, each audited with old and new values', async () => {
    const { api, lastAudit, ipList } = setup();
    const entry = IpRestriction.parse(await api.request('POST', SecurityPaths.ipRestrictions, { body: { ip: '192.0.2.0/24', description: 'Lab', strategy: 'BLOCK', isActive: true } }));
    expect(await lastAudit()).toMatchObject({ action: 'IP restriction added', description: '192.0.2.0/24 (BLOCK) was added to the IP restrictions' });
    const path = SecurityPaths.ipRestriction.replace('{id}', entry.id);
    expect(IpRestriction.parse(await api.request('PATCH', path, { body: { ip: '192.0.2.7', strategy: 'ALLOW' } }))).toMatchObject({ ip: '192.0.2.7', strategy: 'ALLOW', description: 'Lab' });
    expect(await lastAudit()).toMatchObject({ action: 'IP restriction updated', description: '192.0.2.0/24 (BLOCK) -> 192.0.2.7 (ALLOW)' });
    await api.request('DELETE', path);
    expect((await ipList()).total).toBe(2);
    expect(IpRestriction.parse(await api.request('POST', SecurityPaths.ipRestrictionsVerifyAllow))).toMatchObject({ ip: '203.0.113.10', description: 'My IP', strategy: 'ALLOW' });
    expect((await ipList()).total).toBe(3);
    await api.request('POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true, strategy: 'ALLOW' } });
    expect(await api.request('GET', SecurityPaths.ipRestrictionsConfig)).toEqual({ isActive: true, strategy: 'ALLOW' });
    expect(await lastAudit()).toMatchObject({ action: 'IP restrictions config updated', description: 'IP restrictions: active false -> true, ALLOW -> ALLOW' });
  });

  it('refuses an address that is not one, a strategy that is not ALLOW or BLOCK and an unknown entry, naming the field, and changes nothing', async () => {
    const { api, ipList } = setup();
    expect(await failure(api.request('POST', SecurityPaths.ipRestrictions, { body: { ip: '300.1.1.1', strategy: 'ALLOW' } }))).toEqual([400, 'ip must be an IPv4 or IPv6 address or CIDR range']);
    expect(await failure(api.request('POST', SecurityPaths.ipRestrictions, { body: { ip: '2001:db8::/32', strategy: 'MAYBE' } }))).toEqual([400, 'strategy must be ALLOW or BLOCK']);
    expect(await failure(api.request('PATCH', SecurityPaths.ipRestriction.replace('{id}', 'preview-ip-1'), { body: { isActive: 'yes' } }))).toEqual([400, 'isActive must be true or false']);
    expect(await failure(api.request('POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true } }))).toEqual([400, 'strategy must be ALLOW or BLOCK']);
    expect(await failure(api.request('DELETE', SecurityPaths.ipRestriction.replace('{id}', 'nope')))).toEqual([404, 'IP restriction not found']);
    expect((await ipList()).items.map((e) => [e.ip, e.isActive])).toEqual([['198.51.100.0/24', true], ['203.0.113.10', true]]);
    // An IPv6 range is an address too.
    IpRestriction.parse(await api.request('POST', SecurityPaths.ipRestrictions, { body: { ip: '2001:db8::/32', strategy: 'BLOCK' } }));
  });
});

describe('preview email-domain restrictions', () => {
  it('reads the sample config and domains, adds a domain (lower case, no @) and removes it, and saves the config, each audited', async () => {
    const { api, lastAudit } = setup();
    expect(EmailDomainRestrictionConfig.parse(await api.request('GET', SecurityPaths.emailDomainRestrictionsConfig))).toEqual({ active: false, listType: 'ALLOW', blockPublicDomains: false });
    const added = EmailDomainRestriction.parse(await api.request('POST', SecurityPaths.emailDomainRestrictions, { body: { domain: '@Partner.Example', type: 'ALLOW' } }));
    expect(added.domain).toBe('partner.example');
    expect(await lastAudit()).toMatchObject({ action: 'Domain restriction added', description: 'partner.example (ALLOW) was added to the email-domain restrictions' });
    const list = async () => EmailDomainRestrictionList.parse(await api.request('GET', SecurityPaths.emailDomainRestrictions)).items.map((d) => d.domain);
    expect(await list()).toEqual(['preview.example', 'partner.example']);
    await api.request('DELETE', SecurityPaths.emailDomainRestriction.replace('{id}', added.id));
    expect(await list()).toEqual(['preview.example']);
    await api.request('POST', SecurityPaths.emailDomainRestrictionsConfig, { body: { active: true, listType: 'BLOCK', blockPublicDomains: true } });
    expect(await api.request('GET', SecurityPaths.emailDomainRestrictionsConfig)).toEqual({ active: true, listType: 'BLOCK', blockPublicDomains: true });
    expect(await lastAudit()).toMatchObject({ description: 'Email-domain restrictions: active false -> true, ALLOW -> BLOCK' });
  });

  it('refuses a name that is not a domain, a domain listed already and a config without its fields', async () => {
    const { api } = setup();
    expect(await failure(api.request('POST', SecurityPaths.emailDomainRestrictions, { body: { domain: 'not a domain', type: 'ALLOW' } }))).toEqual([400, 'domain must be a domain name such as example.com']);
    expect(await failure(api.request('POST', SecurityPaths.emailDomainRestrictions, { body: { domain: 'Preview.Example', type: 'BLOCK' } }))).toEqual([409, 'preview.example is already listed']);
    expect(await failure(api.request('POST', SecurityPaths.emailDomainRestrictionsConfig, { body: { active: true, listType: 'ALLOW' } }))).toEqual([400, 'blockPublicDomains must be true or false']);
  });
});
