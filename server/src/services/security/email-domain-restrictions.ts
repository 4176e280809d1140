/**
 * Email-domain restrictions of a tenant (issue 12; seed 001 sections 3 "Domain restriction", 7):
 * which addresses may join the tenant (sign-up into it, invitation, bulk invite, social and SSO first
 * sign-in) or move into it (email change).
 *
 * When the config is active:
 * - an entry covers its domain and every subdomain of it (`example.com` covers `eu.example.com`);
 * - a BLOCK entry that covers the address's domain keeps it out (IN_BLOCKLIST);
 * - with `blockPublicDomains`, a domain of a public mail provider (public-email-domains.ts) is kept
 *   out (PUBLIC_DOMAIN), unless an ALLOW entry names it: the admin's own entry wins over the list;
 * - listType ALLOW: a domain no ALLOW entry covers is kept out (NOT_IN_ALLOWLIST).
 */
import { domainToASCII } from 'node:url';
import {
  ErrorCodes,
  SecurityErrorCodes,
  type BulkEmailDomainRestrictionsRequest,
  type CreateEmailDomainRestrictionRequest,
  type EmailDomainRestriction,
  type EmailDomainRestrictionConfig,
  type EmailDomainRestrictionList,
  type EmailDomainVerifyResponse,
  type UpdateEmailDomainRestrictionRequest,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import {
  deleteEmailDomainRestriction,
  findEmailDomainMatches,
  findEmailDomainRestriction,
  findEmailDomainRestrictionByDomain,
  findEmailDomainRestrictionConfig,
  insertEmailDomainRestriction,
  listEmailDomainRestrictions,
  updateEmailDomainRestriction,
  upsertEmailDomainRestrictionConfig,
  type EmailDomainRestrictionRow,
} from '../../db/queries/email-domain-restrictions';
import { AppError, Errors } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import { isPublicEmailDomain } from './public-email-domains';

/** Audit actions of email-domain restrictions (each record holds the old and new values). */
export const EmailDomainAuditActions = {
  created: 'Email domain restriction created',
  updated: 'Email domain restriction updated',
  deleted: 'Email domain restriction deleted',
  bulkSaved: 'Email domain restrictions saved in bulk',
  configUpdated: 'Email domain restriction settings updated',
} as const;

/** The config a tenant has before it saves one: inactive. */
export const DEFAULT_EMAIL_DOMAIN_CONFIG: EmailDomainRestrictionConfig = { active: false, listType: 'BLOCK', blockPublicDomains: false };

/** The refusal at every entry point that lets an address join: 403 ER-02803. */
export const emailDomainRestrictedError = () =>
  new AppError(SecurityErrorCodes.emailDomainRestricted, 403, "This email address's domain is not allowed by the account's administrator");

export interface EmailDomainRestrictionService {
  /** Whether `email` may join (or move into) `tenantId` under its email-domain config and lists. */
  check(tenantId: string, email: string): Promise<EmailDomainVerifyResponse>;
  /** Throws the 403 ER-02803 AppError when `email` may not join `tenantId`. */
  assertAllowed(tenantId: string, email: string): Promise<void>;

  list(caller: AdminCaller, page: { offset?: number; limit?: number }): Promise<EmailDomainRestrictionList>;
  create(caller: AdminCaller, body: CreateEmailDomainRestrictionRequest): Promise<EmailDomainRestriction>;
  update(caller: AdminCaller, id: string, body: UpdateEmailDomainRestrictionRequest): Promise<EmailDomainRestriction>;
  remove(caller: AdminCaller, id: string): Promise<void>;
  /** Creates the entries the tenant does not have yet; all or nothing. */
  bulk(caller: AdminCaller, body: BulkEmailDomainRestrictionsRequest): Promise<EmailDomainRestriction[]>;
  getConfig(caller: AdminCaller): Promise<EmailDomainRestrictionConfig>;
  saveConfig(caller: AdminCaller, body: EmailDomainRestrictionConfig): Promise<EmailDomainRestrictionConfig>;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain as stored and compared: lower case, punycode for international names, no trailing dot.
 * Null when it is not a DNS name of at least two labels with a non-numeric top level.
 */
export function normalizeDomain(input: string): string | null {
  const trimmed = input.trim().toLowerCase().replace(/\.$/, '');
  if (trimmed === '' || trimmed.length > 253 || trimmed.includes('@')) return null;
  const ascii = /^[\x21-\x7e]*$/.test(trimmed) ? trimmed : domainToASCII(trimmed);
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  if (/^[0-9]+$/.test(labels.at(-1)!)) return null;
  return ascii;
}

/** The domain of an email address, normalized; null when the address has none that is valid. */
export function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at > 0 ? normalizeDomain(email.slice(at + 1)) : null;
}

/** A domain and each parent of it that has two labels or more: a.b.example.com, b.example.com, example.com. */
function selfAndParents(domain: string): string[] {
  const labels = domain.split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}

/** The rule of the module comment, on data already read. */
export function evaluateEmailDomain(config: EmailDomainRestrictionConfig, domain: string | null, matches: Pick<EmailDomainRestrictionRow, 'type'>[]): EmailDomainVerifyResponse {
  if (!config.active) return { allowed: true };
  if (domain === null) return { allowed: false, reason: config.listType === 'ALLOW' ? 'NOT_IN_ALLOWLIST' : 'IN_BLOCKLIST' };
  if (matches.some((m) => m.type === 'BLOCK')) return { allowed: false, reason: 'IN_BLOCKLIST' };
  const allowListed = matches.some((m) => m.type === 'ALLOW');
  if (config.blockPublicDomains && !allowListed && isPublicEmailDomain(domain)) return { allowed: false, reason: 'PUBLIC_DOMAIN' };
  if (config.listType === 'ALLOW' && !allowListed) return { allowed: false, reason: 'NOT_IN_ALLOWLIST' };
  return { allowed: true };
}

function configOf(row: { active: number; list_type: 'ALLOW' | 'BLOCK'; block_public_domains: number } | undefined): EmailDomainRestrictionConfig {
  return row ? { active: Number(row.active) === 1, listType: row.list_type, blockPublicDomains: Number(row.block_public_domains) === 1 } : { ...DEFAULT_EMAIL_DOMAIN_CONFIG };
}

function toWire(row: EmailDomainRestrictionRow): EmailDomainRestriction {
  return { id: row.id, domain: row.domain, type: row.type, createdAt: new Date(Number(row.created_at)).toISOString() };
}

function validDomain(field: string, input: string): string {
  const domain = normalizeDomain(input);
  if (!domain) throw Errors.validation(`${field}: must be a domain name such as example.com (no @, at least two labels)`, { field });
  return domain;
}

const alreadyListed = (domain: string, type: string) => new AppError(ErrorCodes.alreadyExists, 409, `${domain} is already on the ${type === 'ALLOW' ? 'allow' : 'block'} list`);
const notFound = () => Errors.notFound('Email domain restriction not found');

export function createEmailDomainRestrictionService(deps: { db: Db; clock: Clock; config: Config }): EmailDomainRestrictionService {
  const { db, clock } = deps;

  async function check(tenantId: string, email: string): Promise<EmailDomainVerifyResponse> {
    const config = configOf(await findEmailDomainRestrictionConfig(db, tenantId));
    if (!config.active) return { allowed: true };
    const domain = domainOfEmail(email);
    const matches = domain ? await findEmailDomainMatches(db, tenantId, selfAndParents(domain)) : [];
    return evaluateEmailDomain(config, domain, matches);
  }

  return {
    check,

    async assertAllowed(tenantId, email) {
      if (!(await check(tenantId, email)).allowed) throw emailDomainRestrictedError();
    },

    async list(caller, page) {
      const { rows, total } = await listEmailDomainRestrictions(db, caller.tenantId, page.offset ?? 0, page.limit ?? 50);
      return { items: rows.map(toWire), total };
    },

    async create(caller, body) {
      const domain = validDomain('domain', body.domain);
      return db.transaction().execute(async (trx) => {
        if (await findEmailDomainRestrictionByDomain(trx, caller.tenantId, domain, body.type)) throw alreadyListed(domain, body.type);
        const now = clock.now();
        const row: EmailDomainRestrictionRow = { id: newId(), tenant_id: caller.tenantId, domain, type: body.type, created_at: now };
        await insertEmailDomainRestriction(trx, row);
        const created = toWire(row);
        await recordAudit(trx, caller, { action: EmailDomainAuditActions.created, description: `Email domain ${domain} (${body.type}) added`, json: { old: null, new: created } }, now);
        return created;
      });
    },

    async update(caller, id, body) {
      return db.transaction().execute(async (trx) => {
        const existing = await findEmailDomainRestriction(trx, caller.tenantId, id);
        if (!existing) throw notFound();
        const domain = body.domain !== undefined ? validDomain('domain', body.domain) : existing.domain;
        const type = body.type ?? existing.type;
        const clash = await findEmailDomainRestrictionByDomain(trx, caller.tenantId, domain, type);
        if (clash && clash.id !== id) throw alreadyListed(domain, type);
        await updateEmailDomainRestriction(trx, caller.tenantId, id, { domain, type });
        const updated = toWire({ ...existing, domain, type });
        await recordAudit(trx, caller, { action: EmailDomainAuditActions.updated, description: `Email domain ${domain} (${type}) updated`, json: { old: toWire(existing), new: updated } }, clock.now());
        return updated;
      });
    },

    async remove(caller, id) {
      await db.transaction().execute(async (trx) => {
        const existing = await findEmailDomainRestriction(trx, caller.tenantId, id);
        if (!existing) throw notFound();
        await deleteEmailDomainRestriction(trx, caller.tenantId, id);
        await recordAudit(trx, caller, { action: EmailDomainAuditActions.deleted, description: `Email domain ${existing.domain} (${existing.type}) removed`, json: { old: toWire(existing), new: null } }, clock.now());
      });
    },

    async bulk(caller, body) {
      // Every domain is checked before anything is saved: one bad entry saves none.
      const wanted = body.restrictions.map((r, i) => ({ domain: validDomain(`restrictions.${i}.domain`, r.domain), type: r.type }));
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const saved: EmailDomainRestriction[] = [];
        const created: EmailDomainRestriction[] = [];
        const seen = new Set<string>();
        for (const entry of wanted) {
          const key = `${entry.type} ${entry.domain}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const existing = await findEmailDomainRestrictionByDomain(trx, caller.tenantId, entry.domain, entry.type);
          if (existing) {
            saved.push(toWire(existing));
            continue;
          }
          const row: EmailDomainRestrictionRow = { id: newId(), tenant_id: caller.tenantId, domain: entry.domain, type: entry.type, created_at: now };
          await insertEmailDomainRestriction(trx, row);
          saved.push(toWire(row));
          created.push(toWire(row));
        }
        await recordAudit(
          trx,
          caller,
          { action: EmailDomainAuditActions.bulkSaved, description: `${created.length} email domain restriction${created.length === 1 ? '' : 's'} added in bulk`, json: { old: null, new: created } },
          now,
        );
        return saved;
      });
    },

    async getConfig(caller) {
      return configOf(await findEmailDomainRestrictionConfig(db, caller.tenantId));
    },

    async saveConfig(caller, body) {
      return db.transaction().execute(async (trx) => {
        const old = configOf(await findEmailDomainRestrictionConfig(trx, caller.tenantId));
        const next: EmailDomainRestrictionConfig = { active: body.active, listType: body.listType, blockPublicDomains: body.blockPublicDomains };
        const now = clock.now();
        await upsertEmailDomainRestrictionConfig(trx, {
          tenant_id: caller.tenantId,
          active: next.active ? 1 : 0,
          list_type: next.listType,
          block_public_domains: next.blockPublicDomains ? 1 : 0,
          updated_at: now,
        });
        await recordAudit(
          trx,
          caller,
          {
            action: EmailDomainAuditActions.configUpdated,
            description: `Email domain restrictions ${next.active ? `active, ${next.listType === 'ALLOW' ? 'allow' : 'block'} list${next.blockPublicDomains ? ', public domains blocked' : ''}` : 'inactive'}`,
            json: { old, new: next },
          },
          now,
        );
        return next;
      });
    },
  };
}
