/**
 * The SSO section's calls to the identity API (seed 001 section 7 "SSO: saml configurations, groups
 * and roles, generic configurations incl. metadata by file or URL, domains, validate domain, roles,
 * groups"), through the portal's API client. Every change answers the configuration as it is now.
 */
import { AdminPaths, SsoPaths } from '@gatehouse/shared/admin-paths';
import type { Role, SsoConfiguration, SsoTestReport, SsoTestStartResponse, TeamRolesResponse } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

/** Seed 001 section 8: what a call on the SAML configuration says when there is none loaded. */
export const SAML_CONFIGURATION_MISSING = 'IllegalState: samlConfiguration is not defined';

/** The loaded SAML configuration, or the seed's IllegalState error when there is none. */
export function requireSamlConfiguration(config: SsoConfiguration | null | undefined): SsoConfiguration {
  if (!config || config.type !== 'saml') throw new Error(SAML_CONFIGURATION_MISSING);
  return config;
}

/** The seed's SAML config as the manual form sends it (seed 001 sections 3, 5). */
export interface SamlConfigInput {
  domain: string;
  ssoEndpoint?: string;
  publicCertificate?: string;
  idpEntityId?: string;
  signRequest?: boolean;
}

export interface OidcInput {
  issuer: string;
  clientId: string;
  /** Empty when editing: the stored secret stays. */
  clientSecret: string;
  scopes?: string;
}

const fill = (template: string, params: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));

export function createSsoApi(api: GatehouseApi) {
  const one = (configId: string) => fill(SsoPaths.configuration, { configId });
  return {
    list: () => api.request<SsoConfiguration[]>('GET', SsoPaths.configurations),
    createSaml: () => api.request<SsoConfiguration>('POST', SsoPaths.configurations, { body: { type: 'saml', enabled: false } }),
    createOidc: (oidc: OidcInput) =>
      api.request<SsoConfiguration>('POST', SsoPaths.configurations, { body: { type: 'oidc', enabled: false, oidc: { issuer: oidc.issuer.trim(), clientId: oidc.clientId.trim(), clientSecret: oidc.clientSecret, ...(oidc.scopes?.trim() ? { scopes: oidc.scopes.trim() } : {}) } } }),
    updateOidc: (configId: string, oidc: OidcInput) =>
      api.request<SsoConfiguration>('PATCH', one(configId), { body: { oidc: { issuer: oidc.issuer.trim(), clientId: oidc.clientId.trim(), ...(oidc.clientSecret ? { clientSecret: oidc.clientSecret } : {}), scopes: oidc.scopes?.trim() ?? '' } } }),
    setEnabled: (configId: string, enabled: boolean) => api.request<SsoConfiguration>('PATCH', one(configId), { body: { enabled } }),
    remove: (configId: string) => api.request<void>('DELETE', one(configId)),
    /** The IdP's metadata file, as text. */
    uploadMetadata: (config: SsoConfiguration | null, metadata: string) => api.request<SsoConfiguration>('PUT', fill(SsoPaths.metadata, { configId: requireSamlConfiguration(config).id }), { body: { metadata } }),
    metadataFromUrl: (config: SsoConfiguration | null, url: string) => api.request<SsoConfiguration>('PUT', fill(SsoPaths.metadataUrl, { configId: requireSamlConfiguration(config).id }), { body: { url: url.trim() } }),
    /**
     * Seed 001 section 5: saved only with a domain (the server names the field otherwise); a changed
     * domain is sent alone, since it clears the endpoint, certificate and sign-request flag.
     */
    saveSaml: (config: SsoConfiguration | null, input: SamlConfigInput) => {
      const saml = requireSamlConfiguration(config);
      const domain = input.domain.trim().toLowerCase();
      const current = saml.domains[0]?.domain;
      const body = current !== undefined && current !== domain
        ? { domain }
        : {
            domain,
            ...(input.ssoEndpoint?.trim() ? { ssoEndpoint: input.ssoEndpoint.trim() } : {}),
            ...(input.publicCertificate?.trim() ? { publicCertificate: input.publicCertificate.trim() } : {}),
            ...(input.idpEntityId !== undefined ? { idpEntityId: input.idpEntityId.trim() } : {}),
            ...(input.signRequest !== undefined ? { signRequest: input.signRequest } : {}),
          };
      return api.request<SsoConfiguration>('PUT', fill(SsoPaths.saml, { configId: saml.id }), { body });
    },
    addDomain: (configId: string, domain: string) => api.request<SsoConfiguration>('POST', fill(SsoPaths.domains, { configId }), { body: { domain: domain.trim() } }),
    removeDomain: (configId: string, domainId: string) => api.request<SsoConfiguration>('DELETE', fill(SsoPaths.domain, { configId, domainId })),
    validateDomain: (config: SsoConfiguration | null, domainId: string) => {
      if (!config) throw new Error(SAML_CONFIGURATION_MISSING);
      return api.request<SsoConfiguration>('PUT', fill(SsoPaths.validateDomain, { configId: config.id, domainId }));
    },
    setRoles: (configId: string, roleIds: string[]) => api.request<SsoConfiguration>('PUT', fill(SsoPaths.roles, { configId }), { body: { roleIds } }),
    setGroups: (configId: string, groups: { group: string; roleIds: string[] }[]) => api.request<SsoConfiguration>('PUT', fill(SsoPaths.groups, { configId }), { body: { groups } }),
    /** Test connection: a test sign-in at the IdP for this session (the address to open), then its report. */
    /** OIDC: `redirectUri` is the login box's oidcRedirectUrl (absolute); SAML sends no body. */
    startTest: (configId: string, redirectUri?: string) => api.request<SsoTestStartResponse>('POST', fill(SsoPaths.test, { configId }), redirectUri ? { body: { redirectUri } } : undefined),
    testReport: (configId: string, testId: string) => api.request<SsoTestReport>('GET', fill(SsoPaths.testReport, { configId, testId })),
    /** The account's roles for the pickers: the roles list, else the team dialogs' list. */
    roles: async (source: 'roles' | 'team'): Promise<Role[]> =>
      source === 'roles' ? api.request<Role[]>('GET', AdminPaths.rolesV1) : (await api.request<TeamRolesResponse>('GET', AdminPaths.teamRoles)).roles,
  };
}

export type SsoApi = ReturnType<typeof createSsoApi>;

/** Fields a server message names (`domain: …`, `ssoEndpoint must …`, `oidc.issuer must …`), for the error under that field. */
export function fieldErrors<F extends string>(error: unknown, fields: readonly F[]): { fields: Partial<Record<F, string>>; other: string | null } {
  const record = error && typeof error === 'object' ? (error as { message?: unknown; errorContext?: unknown }) : {};
  const message = typeof record.message === 'string' ? record.message : '';
  const result: Partial<Record<F, string>> = {};
  const other: string[] = [];
  for (const part of message.split(/, (?=[\w.]+(?::| must| could))/)) {
    const match = /^([\w.]+)(?::\s*|\s)(.+)$/.exec(part);
    const field = match && (fields as readonly string[]).includes(match[1]!) ? (match[1] as F) : null;
    if (field && match) result[field] ??= match[0].startsWith(`${field}:`) ? match[2]! : part;
    else if (part) other.push(part);
  }
  return { fields: result, other: other.length ? other.join(', ') : null };
}
