/**
 * Preview routes of the Security section's IP and email-domain restrictions (docs/preview-mode.md):
 * the sample lists and configs, and each change kept for the page's life and audited. The preview
 * visitor's address is PREVIEW_VISITOR_IP, which the sample allow-list holds, so no change can shut
 * the visitor out and no self-lockout confirmation is asked.
 */
import { IP_RESTRICTIONS_PAGE_SIZE, MY_IP_DESCRIPTION, RestrictionStrategies, SecurityPaths, type RestrictionStrategy } from '../wire/security/paths';
import type { EmailDomainRestriction, EmailDomainRestrictionConfig, IpRestriction, IpRestrictionConfig } from '../wire/security/restrictions';
import { PREVIEW_DOMAIN_CONFIG, PREVIEW_DOMAIN_RESTRICTIONS, PREVIEW_IP_CONFIG, PREVIEW_IP_RESTRICTIONS, PREVIEW_VISITOR_IP } from './admin-sample-data';
import { created, fail, noContent, ok, text, type Answer, type Call, type PreviewState, type Route } from './routes';

/** An IPv4 address or CIDR range, or an IPv6 one (loosely: hex groups and colons); the server is stricter. */
const IP = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}(?:\/(?:3[0-2]|[12]?\d))?|[0-9a-fA-F:]*:[0-9a-fA-F:.]*(?:\/(?:12[0-8]|1[01]\d|\d?\d))?)$/;
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const isStrategy = (value: unknown): value is RestrictionStrategy => RestrictionStrategies.includes(value as RestrictionStrategy);
const page = (query: URLSearchParams, size: number) => {
  const offset = Math.max(0, Number(query.get('offset') ?? 0) || 0);
  const limit = Math.min(200, Math.max(1, Number(query.get('limit') ?? size) || size));
  return [offset, limit] as const;
};

export function restrictionRoutes(state: PreviewState): Route[] {
  let ipConfig: IpRestrictionConfig = { ...PREVIEW_IP_CONFIG };
  let ipEntries: IpRestriction[] = structuredClone([...PREVIEW_IP_RESTRICTIONS]);
  let domainConfig: EmailDomainRestrictionConfig = { ...PREVIEW_DOMAIN_CONFIG };
  let domains: EmailDomainRestriction[] = structuredClone([...PREVIEW_DOMAIN_RESTRICTIONS]);

  /** The fields of an IP entry in a create (all) or update (those given); a string naming the bad field. */
  const ipFields = (body: Call['body'], creating: boolean): string | Partial<IpRestriction> => {
    const changes: Partial<IpRestriction> = {};
    if (creating || 'ip' in body) {
      const ip = text(body, 'ip');
      if (!IP.test(ip)) return 'ip must be an IPv4 or IPv6 address or CIDR range';
      changes.ip = ip;
    }
    if (creating || 'strategy' in body) {
      if (!isStrategy(body.strategy)) return 'strategy must be ALLOW or BLOCK';
      changes.strategy = body.strategy;
    }
    if ('isActive' in body) {
      if (typeof body.isActive !== 'boolean') return 'isActive must be true or false';
      changes.isActive = body.isActive;
    }
    if ('description' in body) changes.description = text(body, 'description').slice(0, 200);
    return changes;
  };
  const addIp = (entry: Omit<IpRestriction, 'id' | 'createdAt' | 'updatedAt'>): Answer => {
    const when = state.iso();
    const saved: IpRestriction = { id: state.newId('ip'), createdAt: when, updatedAt: when, ...entry };
    ipEntries.push(saved);
    state.audit('IP restriction added', `${saved.ip} (${saved.strategy}) was added to the IP restrictions`);
    return created(saved);
  };

  return [
    ['GET', SecurityPaths.ipRestrictionsConfig, () => ok(ipConfig)],
    ['POST', SecurityPaths.ipRestrictionsConfig, ({ body }) => {
      if (typeof body.isActive !== 'boolean') return fail(400, 'isActive must be true or false');
      if (!isStrategy(body.strategy)) return fail(400, 'strategy must be ALLOW or BLOCK');
      const before = ipConfig;
      ipConfig = { isActive: body.isActive, strategy: body.strategy };
      state.audit('IP restrictions config updated', `IP restrictions: active ${before.isActive} -> ${ipConfig.isActive}, ${before.strategy} -> ${ipConfig.strategy}`);
      return ok(ipConfig);
    }],
    ['GET', SecurityPaths.ipRestrictions, ({ query }) => {
      const [offset, limit] = page(query, IP_RESTRICTIONS_PAGE_SIZE);
      return ok({ items: ipEntries.slice(offset, offset + limit), total: ipEntries.length });
    }],
    ['POST', SecurityPaths.ipRestrictions, ({ body }) => {
      const fields = ipFields(body, true);
      if (typeof fields === 'string') return fail(400, fields);
      return addIp({ ip: fields.ip!, strategy: fields.strategy!, isActive: fields.isActive ?? true, description: fields.description ?? '' });
    }],
    ['PATCH', SecurityPaths.ipRestriction, ({ params, body }) => {
      const entry = ipEntries.find((e) => e.id === params.id);
      if (!entry) return fail(404, 'IP restriction not found');
      const fields = ipFields(body, false);
      if (typeof fields === 'string') return fail(400, fields);
      const before = `${entry.ip} (${entry.strategy})`;
      Object.assign(entry, fields, { updatedAt: state.iso() });
      state.audit('IP restriction updated', `${before} -> ${entry.ip} (${entry.strategy})`);
      return ok(entry);
    }],
    ['DELETE', SecurityPaths.ipRestriction, ({ params }) => {
      const entry = ipEntries.find((e) => e.id === params.id);
      if (!entry) return fail(404, 'IP restriction not found');
      ipEntries = ipEntries.filter((e) => e !== entry);
      state.audit('IP restriction removed', `${entry.ip} was removed from the IP restrictions`);
      return noContent;
    }],
    ['POST', SecurityPaths.ipRestrictionsVerify, () => ok({ allowed: true, ip: PREVIEW_VISITOR_IP })],
    ['POST', SecurityPaths.ipRestrictionsVerifyAllow, () =>
      addIp({ ip: PREVIEW_VISITOR_IP, strategy: 'ALLOW', isActive: true, description: MY_IP_DESCRIPTION })],

    ['GET', SecurityPaths.emailDomainRestrictionsConfig, () => ok(domainConfig)],
    ['POST', SecurityPaths.emailDomainRestrictionsConfig, ({ body }) => {
      if (typeof body.active !== 'boolean') return fail(400, 'active must be true or false');
      if (!isStrategy(body.listType)) return fail(400, 'listType must be ALLOW or BLOCK');
      if (typeof body.blockPublicDomains !== 'boolean') return fail(400, 'blockPublicDomains must be true or false');
      const before = domainConfig;
      domainConfig = { active: body.active, listType: body.listType, blockPublicDomains: body.blockPublicDomains };
      state.audit('Domain restrictions config updated', `Email-domain restrictions: active ${before.active} -> ${domainConfig.active}, ${before.listType} -> ${domainConfig.listType}`);
      return ok(domainConfig);
    }],
    ['GET', SecurityPaths.emailDomainRestrictions, ({ query }) => {
      const [offset, limit] = page(query, 200);
      return ok({ items: domains.slice(offset, offset + limit), total: domains.length });
    }],
    ['POST', SecurityPaths.emailDomainRestrictions, ({ body }) => {
      const domain = text(body, 'domain').toLowerCase().replace(/^@/, '');
      if (!DOMAIN.test(domain)) return fail(400, 'domain must be a domain name such as example.com');
      if (!isStrategy(body.type)) return fail(400, 'type must be ALLOW or BLOCK');
      if (domains.some((d) => d.domain === domain)) return fail(409, `${domain} is already listed`);
      const saved: EmailDomainRestriction = { id: state.newId('domain'), domain, type: body.type, createdAt: state.iso() };
      domains.push(saved);
      state.audit('Domain restriction added', `${domain} (${saved.type}) was added to the email-domain restrictions`);
      return created(saved);
    }],
    ['DELETE', SecurityPaths.emailDomainRestriction, ({ params }) => {
      const entry = domains.find((d) => d.id === params.id);
      if (!entry) return fail(404, 'Domain restriction not found');
      domains = domains.filter((d) => d !== entry);
      state.audit('Domain restriction removed', `${entry.domain} was removed from the email-domain restrictions`);
      return noContent;
    }],
  ];
}
