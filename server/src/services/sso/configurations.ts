/**
 * Tenant SSO configuration (seed 001 sections 3, 5, 7 "SSO"): the identity providers of a tenant,
 * their SAML metadata (file, URL or entered by hand) or OIDC client, email domains proven by a DNS
 * TXT record, default roles and group-to-role mappings. Every call comes through the admin guard
 * (the caller's tenant, the samlConfiguration read or write permission); a configuration of another
 * tenant answers 404, as if it did not exist. Every change writes an audit record with the
 * configuration before and after (never the OIDC client secret: the wire shape has none).
 */
import { ErrorCodes, SSO_DOMAIN_TXT_PREFIX, type CreateSsoConfigurationRequest, type SsoConfiguration, type SsoType, type UpdateSsoConfigurationRequest } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { decrypt, encrypt, newId, newSecret } from '../../crypto';
import type { Db } from '../../db';
import {
  deleteSsoConfiguration, deleteSsoDomain, findSsoConfiguration, findSsoDomain, findValidatedDomain, insertSsoConfiguration, insertSsoDomain, listSsoConfigurations,
  listSsoDomains, listSsoGroupMappings, markSsoDomainValidated, replaceSsoGroupMappings, tenantRoleIds, updateSsoConfiguration, type SsoConfigurationRow,
  type SsoDomainRow, type SsoGroupMappingRow,
} from '../../db/queries/sso-configurations';
import { listRolePermissions } from '../../db/queries/roles';
import { AppError, Errors } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import { covers } from '../admin/permissions';
import type { TxtResolver } from './dns';
import { certificateExpiry, certificatePem, parseIdpMetadata, readCertificate } from './saml-metadata';
import { acsUrl, checkIdpUrl, spEntityId } from './urls';

export const DEFAULT_OIDC_SCOPES = 'openid email profile';
/** Largest metadata document fetched from a URL. */
const MAX_METADATA_BYTES = 512 * 1024;
const METADATA_FETCH_TIMEOUT_MS = 5000;

type Ctx = AdminCaller;

/** Audit actions of SSO configuration (each record holds the configuration before and after). */
export const SsoAuditActions = {
  created: 'SSO configuration created',
  updated: 'SSO configuration updated',
  deleted: 'SSO configuration deleted',
  metadataSet: 'SSO identity provider metadata set',
  samlSaved: 'SAML configuration saved',
  domainAdded: 'SSO domain added',
  domainRemoved: 'SSO domain removed',
  domainValidated: 'SSO domain validated',
  rolesSet: 'SSO default roles updated',
  groupsSet: 'SSO group mappings updated',
} as const;

/** PUT configurations/{configId}/saml: the seed's "SAML config" save, by hand. */
export interface SamlConfigurationInput {
  domain?: string | undefined;
  idpEntityId?: string | undefined;
  ssoEndpoint?: string | undefined;
  publicCertificate?: string | undefined;
  signRequest?: boolean | undefined;
}

export interface SsoConfigurationService {
  list(ctx: Ctx): Promise<SsoConfiguration[]>;
  get(ctx: Ctx, configId: string): Promise<SsoConfiguration>;
  create(ctx: Ctx, body: CreateSsoConfigurationRequest): Promise<SsoConfiguration>;
  update(ctx: Ctx, configId: string, body: UpdateSsoConfigurationRequest): Promise<SsoConfiguration>;
  remove(ctx: Ctx, configId: string): Promise<void>;
  setMetadata(ctx: Ctx, configId: string, xml: string): Promise<SsoConfiguration>;
  setMetadataUrl(ctx: Ctx, configId: string, url: string): Promise<SsoConfiguration>;
  addDomain(ctx: Ctx, configId: string, domain: string): Promise<SsoConfiguration>;
  removeDomain(ctx: Ctx, configId: string, domainId: string): Promise<SsoConfiguration>;
  validateDomain(ctx: Ctx, configId: string, domainId: string): Promise<SsoConfiguration>;
  setRoles(ctx: Ctx, configId: string, roleIds: string[]): Promise<SsoConfiguration>;
  setGroups(ctx: Ctx, configId: string, groups: { group: string; roleIds: string[] }[]): Promise<SsoConfiguration>;
  /**
   * Seed 001 section 5: saved only when a domain is set; changing the domain clears the sign-in URL,
   * the certificate and the sign-request flag. The configuration's domain is its first one.
   */
  saveSaml(ctx: Ctx, configId: string, body: SamlConfigurationInput): Promise<SsoConfiguration>;
}

/** The OIDC client secret as stored: encrypted when a key encryption key is configured. */
export function sealSecret(secret: string, config: Pick<Config, 'keyEncryptionKey'>): string {
  return config.keyEncryptionKey ? encrypt(secret, config.keyEncryptionKey) : secret;
}

export function openSecret(stored: string, config: Pick<Config, 'keyEncryptionKey'>): string {
  return decrypt(stored, config.keyEncryptionKey);
}

/**
 * Entra ID's common, organizations and consumers issuers accept ID tokens of every directory, whose
 * own admins set the email claim: such an IdP would speak for the tenant's validated domains on
 * anyone's behalf (nOAuth). An SSO configuration names one directory.
 */
export function isMultiTenantIssuer(issuer: string): boolean {
  let url: URL;
  try {
    url = new URL(issuer.trim());
  } catch {
    return false;
  }
  const tenant = url.pathname.split('/').find(Boolean)?.toLowerCase();
  return url.hostname === 'login.microsoftonline.com' && (tenant === 'common' || tenant === 'organizations' || tenant === 'consumers');
}

export function parseIds(json: string | null): string[] {
  try {
    const value = JSON.parse(json ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function createSsoConfigurationService(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'keyEncryptionKey' | 'sso'>;
  resolveTxt: TxtResolver;
  /** Fetches a metadata URL (tests may route it); default: fetch with a timeout, no redirects. */
  fetch?: typeof fetch;
}): SsoConfigurationService {
  const { db, clock, config, resolveTxt } = deps;
  const doFetch = deps.fetch ?? fetch;

  async function toResponse(row: SsoConfigurationRow, domainRows?: SsoDomainRow[], groupRows?: SsoGroupMappingRow[], q: Db = db): Promise<SsoConfiguration> {
    const domains = domainRows ?? (await listSsoDomains(q, [row.id]));
    const groups = groupRows ?? (await listSsoGroupMappings(q, [row.id]));
    const type = row.type as SsoType;
    const certificates = parseIds(row.idp_certificates);
    return {
      id: row.id,
      type,
      enabled: row.enabled === 1,
      domains: domains.filter((d) => d.config_id === row.id).map((d) => ({ id: d.id, domain: d.domain, validated: d.validated === 1, generatedVerification: `${SSO_DOMAIN_TXT_PREFIX}${d.verification}` })),
      roleIds: parseIds(row.default_role_ids),
      groups: groups.filter((g) => g.config_id === row.id).map((g) => ({ id: g.id, group: g.group_name, roleIds: parseIds(g.role_ids) })),
      signRequest: row.sign_request === 1,
      ...(type === 'saml'
        ? {
            acsUrl: acsUrl(config, row.id),
            spEntityId: spEntityId(config, row.id),
            spMetadataUrl: spEntityId(config, row.id),
            // Public: the certificate our signed AuthnRequests verify with (also in the SP metadata).
            spCertificate: config.sso.spSigningCert,
            idpEntityId: row.idp_entity_id,
            ssoEndpoint: row.idp_sso_url,
            publicCertificate: certificates[0] ? certificatePem(certificates[0]) : null,
            publicCertificateExpiresAt: certificates[0] ? certificateExpiry(certificates[0]) : null,
            metadataUrl: row.idp_metadata_url,
          }
        : {
            oidc: { issuer: row.oidc_issuer ?? '', clientId: row.oidc_client_id ?? '', scopes: row.oidc_scopes ?? DEFAULT_OIDC_SCOPES, hasClientSecret: Boolean(row.oidc_client_secret) },
          }),
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  }

  /** The caller's configuration (the guard checked the permission); another tenant's answers 404. */
  async function load(ctx: Ctx, configId: string): Promise<SsoConfigurationRow> {
    const row = await findSsoConfiguration(db, configId);
    if (!row || row.tenant_id !== ctx.tenantId) throw Errors.notFound('SSO configuration not found');
    return row;
  }

  /**
   * In one transaction: runs `change` (domains, group mappings), applies `patch` (and bumps
   * updated_at) and records `action` with the configuration before and after, so the audit row and
   * its event (sso.configuration_changed) exist exactly when the change does.
   */
  async function touch(
    ctx: Ctx,
    before: SsoConfiguration | null,
    id: string,
    action: string,
    description: string,
    patch: Parameters<typeof updateSsoConfiguration>[2] = {},
    change?: (trx: Db) => Promise<void>,
  ): Promise<SsoConfiguration> {
    return db.transaction().execute(async (trx) => {
      await change?.(trx);
      await updateSsoConfiguration(trx, id, { ...patch, updated_at: clock.now() });
      const after = await toResponse((await findSsoConfiguration(trx, id))!, undefined, undefined, trx);
      await audit(trx, ctx, action, description, before, after);
      return after;
    });
  }

  async function audit(q: Db, ctx: Ctx, action: string, description: string, before: SsoConfiguration | null, after: SsoConfiguration | null): Promise<void> {
    await recordAudit(q, ctx, { action, description, json: { configId: (after ?? before)?.id, old: before, new: after } }, clock.now());
  }

  /** Role ids must be roles of the configuration's own tenant: SSO never grants another tenant's roles. */
  async function checkRoles(ctx: Ctx, tenantId: string, ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const found = await tenantRoleIds(db, tenantId, unique);
    const missing = unique.filter((id) => !found.includes(id));
    if (missing.length) throw Errors.validation(`Unknown role id${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`, { roleIds: missing });
    // No escalation: SSO users (perhaps the caller's own accounts at an IdP the caller set up) get
    // only roles the caller could hold; super users any.
    if (!ctx.superUser) {
      const beyond = (await listRolePermissions(db, unique)).filter((p) => !covers(ctx.keys, p.key)).map((p) => p.key);
      if (beyond.length > 0) throw new AppError(ErrorCodes.roleNotGrantable, 403, 'You cannot grant a role with permissions you do not have', { permissions: beyond });
    }
    return unique;
  }

  async function checkIssuer(issuer: string): Promise<string> {
    if (isMultiTenantIssuer(issuer)) {
      throw Errors.validation("oidc.issuer must be your Entra ID tenant's own issuer (https://login.microsoftonline.com/<tenant id>/v2.0), not common, organizations or consumers");
    }
    return (await checkIdpUrl(issuer, config, 'oidc.issuer')).href.replace(/\/$/, '');
  }

  async function fetchMetadata(raw: string): Promise<string> {
    const url = await checkIdpUrl(raw, config, 'url');
    let res: Response;
    try {
      // No redirects: a redirect could lead past the address check above.
      res = await doFetch(url, { redirect: 'error', signal: AbortSignal.timeout(METADATA_FETCH_TIMEOUT_MS), headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' } });
    } catch {
      throw new AppError(ErrorCodes.ssoInvalidMetadata, 400, 'The SAML metadata URL could not be fetched');
    }
    if (!res.ok) throw new AppError(ErrorCodes.ssoInvalidMetadata, 400, `The SAML metadata URL answered ${res.status}`);
    const tooLarge = () => new AppError(ErrorCodes.ssoInvalidMetadata, 400, 'The SAML metadata document is too large');
    const length = Number(res.headers.get('content-length') ?? 0);
    if (length > MAX_METADATA_BYTES) throw tooLarge();
    // Read up to the cap only: a body without Content-Length could otherwise fill the memory.
    const reader = res.body?.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) {
        size += part.value.byteLength;
        if (size > MAX_METADATA_BYTES) {
          void reader!.cancel().catch(() => undefined);
          throw tooLarge();
        }
        chunks.push(part.value);
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError(ErrorCodes.ssoInvalidMetadata, 400, 'The SAML metadata URL could not be fetched');
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  async function applyMetadata(ctx: Ctx, row: SsoConfigurationRow, xml: string, metadataUrl: string | null): Promise<SsoConfiguration> {
    if (row.type !== 'saml') throw Errors.validation('Metadata applies to SAML configurations only');
    const parsed = parseIdpMetadata(xml);
    const before = await toResponse(row);
    return touch(ctx, before, row.id, SsoAuditActions.metadataSet, metadataUrl ? `SAML metadata of SSO configuration ${row.id} read from ${metadataUrl}` : `SAML metadata of SSO configuration ${row.id} uploaded`, {
      idp_entity_id: parsed.entityId,
      idp_sso_url: parsed.ssoUrl,
      idp_certificates: JSON.stringify(parsed.certificates),
      idp_metadata_url: metadataUrl,
    });
  }

  function checkSignRequest(type: string, signRequest: boolean | undefined): void {
    if (!signRequest) return;
    if (type !== 'saml') throw Errors.validation('signRequest applies to SAML configurations only');
    if (!config.sso.spSigningKey) {
      throw new AppError(ErrorCodes.ssoConfigurationInvalid, 400, 'Signed AuthnRequests need the server\'s SP signing key; set SSO_SAML_SP_KEY and SSO_SAML_SP_CERT');
    }
  }

  return {
    async list(ctx) {
      const rows = await listSsoConfigurations(db, ctx.tenantId);
      const ids = rows.map((r) => r.id);
      const [domains, groups] = await Promise.all([listSsoDomains(db, ids), listSsoGroupMappings(db, ids)]);
      return Promise.all(rows.map((row) => toResponse(row, domains, groups)));
    },

    async get(ctx, configId) {
      return toResponse(await load(ctx, configId));
    },

    async create(ctx, body) {
      checkSignRequest(body.type, body.signRequest);
      if (body.type === 'saml' && body.oidc) throw Errors.validation('oidc settings apply to OIDC configurations only');
      const now = clock.now();
      const id = newId();
      // Checked before the transaction: it may reach the issuer over the network.
      const issuer = body.oidc ? await checkIssuer(body.oidc.issuer) : null;
      return db.transaction().execute(async (trx) => {
        await insertSsoConfiguration(trx, {
          id,
          tenant_id: ctx.tenantId,
          type: body.type,
          enabled: body.enabled === false ? 0 : 1,
          sign_request: body.signRequest ? 1 : 0,
          idp_entity_id: null,
          idp_sso_url: null,
          idp_certificates: null,
          idp_metadata_url: null,
          oidc_issuer: issuer,
          oidc_client_id: body.oidc?.clientId ?? null,
          oidc_client_secret: body.oidc ? sealSecret(body.oidc.clientSecret, config) : null,
          oidc_scopes: body.oidc?.scopes || null,
          default_role_ids: '[]',
          created_at: now,
          updated_at: now,
        });
        const created = await toResponse((await findSsoConfiguration(trx, id))!, [], [], trx);
        await audit(trx, ctx, SsoAuditActions.created, `SSO configuration ${id} (${body.type.toUpperCase()}) created`, null, created);
        return created;
      });
    },

    async update(ctx, configId, body) {
      const row = await load(ctx, configId);
      checkSignRequest(row.type, body.signRequest);
      if (body.oidc && row.type !== 'oidc') throw Errors.validation('oidc settings apply to OIDC configurations only');
      const before = await toResponse(row);
      const what = body.enabled === undefined ? 'updated' : body.enabled ? 'enabled' : 'disabled';
      return touch(ctx, before, row.id, SsoAuditActions.updated, `SSO configuration ${row.id} ${what}`, {
        ...(body.enabled !== undefined ? { enabled: body.enabled ? 1 : 0 } : {}),
        ...(body.signRequest !== undefined ? { sign_request: body.signRequest ? 1 : 0 } : {}),
        ...(body.oidc?.issuer ? { oidc_issuer: await checkIssuer(body.oidc.issuer) } : {}),
        ...(body.oidc?.clientId ? { oidc_client_id: body.oidc.clientId } : {}),
        ...(body.oidc?.clientSecret ? { oidc_client_secret: sealSecret(body.oidc.clientSecret, config) } : {}),
        ...(body.oidc?.scopes !== undefined ? { oidc_scopes: body.oidc.scopes || null } : {}),
      });
    },

    async remove(ctx, configId) {
      const row = await load(ctx, configId);
      const before = await toResponse(row);
      await db.transaction().execute(async (trx) => {
        await deleteSsoConfiguration(trx, row.id);
        await audit(trx, ctx, SsoAuditActions.deleted, `SSO configuration ${row.id} deleted`, before, null);
      });
    },

    async setMetadata(ctx, configId, xml) {
      return applyMetadata(ctx, await load(ctx, configId), xml, null);
    },

    async setMetadataUrl(ctx, configId, url) {
      const row = await load(ctx, configId);
      if (row.type !== 'saml') throw Errors.validation('Metadata applies to SAML configurations only');
      return applyMetadata(ctx, row, await fetchMetadata(url), url);
    },

    async addDomain(ctx, configId, domain) {
      const row = await load(ctx, configId);
      const existing = await listSsoDomains(db, [row.id]);
      if (existing.some((d) => d.domain === domain)) throw new AppError(ErrorCodes.validation, 409, `${domain} is already a domain of this configuration`);
      if (await findValidatedDomain(db, domain)) throw new AppError(ErrorCodes.ssoDomainTaken, 409, `${domain} is already validated by another SSO configuration`);
      const before = await toResponse(row, existing);
      return touch(ctx, before, row.id, SsoAuditActions.domainAdded, `Domain ${domain} added to SSO configuration ${row.id}`, {}, (trx) =>
        insertSsoDomain(trx, { id: newId(), config_id: row.id, domain, validated: 0, verification: newSecret(), created_at: clock.now(), validated_at: null }),
      );
    },

    async removeDomain(ctx, configId, domainId) {
      const row = await load(ctx, configId);
      const domain = await findSsoDomain(db, row.id, domainId);
      if (!domain) throw Errors.notFound('Domain not found');
      const before = await toResponse(row);
      return touch(ctx, before, row.id, SsoAuditActions.domainRemoved, `Domain ${domain.domain} removed from SSO configuration ${row.id}`, {}, (trx) => deleteSsoDomain(trx, domain.id));
    },

    async validateDomain(ctx, configId, domainId) {
      const row = await load(ctx, configId);
      const domain = await findSsoDomain(db, row.id, domainId);
      if (!domain) throw Errors.notFound('Domain not found');
      if (domain.validated === 1) return toResponse(row);
      const expected = `${SSO_DOMAIN_TXT_PREFIX}${domain.verification}`;
      const records = await resolveTxt(domain.domain);
      if (!records.some((r) => r.trim() === expected)) {
        throw new AppError(ErrorCodes.ssoDomainNotVerified, 400, `No TXT record "${expected}" was found on ${domain.domain}; add it to the domain's DNS and try again`, { domain: domain.domain });
      }
      const before = await toResponse(row);
      try {
        return await touch(ctx, before, row.id, SsoAuditActions.domainValidated, `Domain ${domain.domain} of SSO configuration ${row.id} validated`, {}, (trx) => markSsoDomainValidated(trx, domain.id, clock.now()));
      } catch (err) {
        // The partial unique index: another configuration validated this domain first.
        if (await findValidatedDomain(db, domain.domain)) throw new AppError(ErrorCodes.ssoDomainTaken, 409, `${domain.domain} is already validated by another SSO configuration`);
        throw err;
      }
    },

    async setRoles(ctx, configId, roleIds) {
      const row = await load(ctx, configId);
      const roles = await checkRoles(ctx, row.tenant_id, roleIds);
      return touch(ctx, await toResponse(row), row.id, SsoAuditActions.rolesSet, `Default roles of SSO configuration ${row.id} updated`, { default_role_ids: JSON.stringify(roles) });
    },

    async setGroups(ctx, configId, groups) {
      const row = await load(ctx, configId);
      const seen = new Set<string>();
      const rows: Parameters<typeof replaceSsoGroupMappings>[2] = [];
      for (const g of groups) {
        if (seen.has(g.group)) throw Errors.validation(`Group ${g.group} is listed twice`);
        seen.add(g.group);
        rows.push({ id: newId(), config_id: row.id, group_name: g.group, role_ids: JSON.stringify(await checkRoles(ctx, row.tenant_id, g.roleIds)) });
      }
      const before = await toResponse(row);
      return touch(ctx, before, row.id, SsoAuditActions.groupsSet, `Group mappings of SSO configuration ${row.id} updated`, {}, (trx) => replaceSsoGroupMappings(trx, row.id, rows));
    },

    async saveSaml(ctx, configId, body) {
      const row = await load(ctx, configId);
      if (row.type !== 'saml') throw Errors.validation('The SAML configuration applies to SAML configurations only');
      // Seed 001 section 5: a SAML configuration is saved only when a domain is set.
      const domain = body.domain?.trim().toLowerCase();
      if (!domain) throw Errors.validation('domain: a SAML configuration is saved only when a domain is set', { field: 'domain' });
      const domains = await listSsoDomains(db, [row.id]);
      const current = domains[0];
      const changed = current !== undefined && current.domain !== domain;
      const idpFields = body.ssoEndpoint !== undefined || body.publicCertificate !== undefined || body.idpEntityId !== undefined || body.signRequest === true;
      if (changed && idpFields) {
        // Changing the domain clears these (seed 001 section 5); refusing keeps the caller's values
        // from being dropped without a word.
        throw Errors.validation(`domain: changing the domain (${current.domain} to ${domain}) clears the SSO endpoint, certificate and signRequest; save the new domain alone first`, { field: 'domain' });
      }
      if (domains.some((d) => d.domain === domain && d !== current)) throw new AppError(ErrorCodes.validation, 409, `${domain} is already a domain of this configuration`);
      if (current?.domain !== domain && (await findValidatedDomain(db, domain))) throw new AppError(ErrorCodes.ssoDomainTaken, 409, `${domain} is already validated by another SSO configuration`);
      checkSignRequest(row.type, body.signRequest);
      const endpoint = body.ssoEndpoint === undefined ? undefined : checkEndpoint(body.ssoEndpoint);
      const certificate = body.publicCertificate === undefined ? undefined : readCertificate(body.publicCertificate, 'publicCertificate');
      const before = await toResponse(row, domains);
      const patch: Parameters<typeof updateSsoConfiguration>[2] = changed
        ? { idp_sso_url: null, idp_certificates: null, sign_request: 0 }
        : {
            ...(endpoint !== undefined ? { idp_sso_url: endpoint } : {}),
            ...(certificate !== undefined ? { idp_certificates: JSON.stringify([certificate]) } : {}),
            ...(body.idpEntityId !== undefined ? { idp_entity_id: body.idpEntityId.trim() || null } : {}),
            ...(body.signRequest !== undefined ? { sign_request: body.signRequest ? 1 : 0 } : {}),
            // Entered by hand: no longer the document of a metadata URL.
            ...(endpoint !== undefined || certificate !== undefined ? { idp_metadata_url: null } : {}),
          };
      const description = changed ? `Domain of SAML configuration ${row.id} changed from ${current.domain} to ${domain}; SSO endpoint, certificate and signRequest cleared` : `SAML configuration ${row.id} saved for ${domain}`;
      return touch(ctx, before, row.id, SsoAuditActions.samlSaved, description, patch, async (trx) => {
        if (current?.domain === domain) return;
        if (current) await deleteSsoDomain(trx, current.id);
        await insertSsoDomain(trx, { id: newId(), config_id: row.id, domain, validated: 0, verification: newSecret(), created_at: current?.created_at ?? clock.now(), validated_at: null });
      });
    },
  };
}

/** A sign-in URL entered by hand: http(s), as the metadata reader accepts. */
function checkEndpoint(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw Errors.validation('ssoEndpoint must be a URL', { field: 'ssoEndpoint' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw Errors.validation('ssoEndpoint must be an http(s) URL', { field: 'ssoEndpoint' });
  return url.href;
}
