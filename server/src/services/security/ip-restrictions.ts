/**
 * IP restrictions of a tenant (issue 12; seed 001 sections 3, 7, 9): allow and block lists of
 * addresses and CIDR ranges, a config that says whether and how they apply, and the check every entry
 * point asks (sign-in, refresh, hosted login, every API call of a member, API tokens).
 *
 * Evaluation, when the tenant's config is active:
 * - an active BLOCK entry that covers the address always keeps it out;
 * - strategy ALLOW: only an address covered by an active ALLOW entry gets in (an unknown address
 *   never does: failing closed);
 * - strategy BLOCK: everything else gets in.
 * Inactive entries are ignored. A tenant's config, and its active entries when the config is on,
 * are read from the database and kept at most 1 s per process (a table cache,
 * services/platform/table-cache.ts, that a write through this process empties): a change takes
 * effect at once in the process that made it, and within 1 s in every other one (the two-server
 * test of routes/security/ip-restrictions.enforcement.test.ts).
 */
import { ErrorCodes, MY_IP_DESCRIPTION, SecurityErrorCodes, type BulkIpRestrictionsRequest, type CreateIpRestrictionRequest, type IpRestriction, type IpRestrictionConfig, type IpRestrictionList, type IpVerifyResponse, type RestrictionStrategy, type SaveIpRestrictionConfigRequest, type UpdateIpRestrictionRequest } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { createTableCache } from '../platform/table-cache';
import {
  deleteIpRestriction,
  findIpRestriction,
  findIpRestrictionByIp,
  findIpRestrictionConfig,
  insertIpRestriction,
  listActiveIpRanges,
  listAllIpRestrictions,
  listIpRestrictions,
  updateIpRestriction,
  upsertIpRestrictionConfig,
  type IpRestrictionRow,
} from '../../db/queries/ip-restrictions';
import { AppError, Errors } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import { canonicalIpRange, formatAddress, IpParseError, parseClientAddress, parseIpRange, rangeContains, type IpRange } from './ip-ranges';

/** Audit actions of IP restrictions (each record holds the old and new values). */
export const IpRestrictionAuditActions = {
  created: 'IP restriction created',
  updated: 'IP restriction updated',
  deleted: 'IP restriction deleted',
  bulkSaved: 'IP restrictions saved in bulk',
  configUpdated: 'IP restriction settings updated',
} as const;

/** The config a tenant has before it saves one: inactive. */
export const DEFAULT_IP_RESTRICTION_CONFIG: IpRestrictionConfig = { isActive: false, strategy: 'ALLOW' };

/** The refusal of every entry point (issue 12): 403 ER-IP-RESTRICTED. */
export const ipRestrictedError = () =>
  new AppError(SecurityErrorCodes.ipRestricted, 403, "Access from your network is not allowed by your account's administrator");

const selfLockoutError = (ip: string | null) =>
  new AppError(
    SecurityErrorCodes.selfLockout,
    409,
    `This change would block your own address (${ip ?? 'unknown'}) from this account; add your IP first, or send confirmSelfLockout: true to save it anyway`,
    { ip },
  );

export interface IpRestrictionService {
  /** Whether `ip` may act for a member of `tenantId` under the tenant's IP config and lists. */
  isAllowed(tenantId: string, ip: string | null): Promise<boolean>;
  /** Throws the 403 ER-IP-RESTRICTED AppError when `ip` may not act for a member of `tenantId`. */
  assertAllowed(tenantId: string, ip: string | null): Promise<void>;

  list(caller: AdminCaller, page: { offset?: number; limit?: number }): Promise<IpRestrictionList>;
  create(caller: AdminCaller, body: CreateIpRestrictionRequest): Promise<IpRestriction>;
  update(caller: AdminCaller, id: string, body: UpdateIpRestrictionRequest): Promise<IpRestriction>;
  remove(caller: AdminCaller, id: string, confirmSelfLockout: boolean): Promise<void>;
  /** Creates the entries, or updates those the tenant has already (same address and strategy); all or nothing. */
  bulk(caller: AdminCaller, body: BulkIpRestrictionsRequest): Promise<IpRestriction[]>;
  getConfig(caller: AdminCaller): Promise<IpRestrictionConfig>;
  saveConfig(caller: AdminCaller, body: SaveIpRestrictionConfigRequest): Promise<IpRestrictionConfig>;
  /** Is the caller's own address allowed now? */
  verify(caller: AdminCaller): Promise<IpVerifyResponse>;
  /** "Add my IP": an active ALLOW entry for the caller's own address, described 'My IP'. `created` is false when it existed. */
  allowMyIp(caller: AdminCaller): Promise<{ entry: IpRestriction; created: boolean }>;
}

/**
 * Tenants whose restrictions one process keeps (the oldest go first); an entry holds the tenant's
 * active entries, so fewer than the policies' caches keep.
 */
const TENANTS_KEPT = 2_000;

/** An entry the evaluation reads: its range and strategy. */
export interface ActiveRange {
  range: IpRange;
  strategy: RestrictionStrategy;
}

/** The rule of the module comment, on data already read: may `ip` in? */
export function evaluateIp(config: IpRestrictionConfig, active: ActiveRange[], ip: string | null): boolean {
  if (!config.isActive) return true;
  const address = ip ? parseClientAddress(ip) : null;
  const covered = (strategy: RestrictionStrategy) => address !== null && active.some((e) => e.strategy === strategy && rangeContains(e.range, address));
  if (covered('BLOCK')) return false;
  return config.strategy === 'BLOCK' || covered('ALLOW');
}

/**
 * Parsed ranges by their stored text. Parsing is a pure function of the text, so this memo can never
 * be stale (the rows themselves are read from the database on every check); it only saves the
 * parsing of long lists on every request. Bounded: cleared when full.
 */
const parsed = new Map<string, IpRange | null>();
const PARSED_MAX = 20_000;

function parsedRange(text: string): IpRange | null {
  let range = parsed.get(text);
  if (range !== undefined) return range;
  try {
    range = parseIpRange(text);
  } catch {
    // Every stored entry was canonicalised on save; one that no longer parses matches nothing.
    range = null;
  }
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(text, range);
  return range;
}

function rangesOf(rows: Pick<IpRestrictionRow, 'ip' | 'strategy' | 'is_active'>[]): ActiveRange[] {
  const ranges: ActiveRange[] = [];
  for (const row of rows) {
    if (Number(row.is_active) !== 1) continue;
    const range = parsedRange(row.ip);
    if (range) ranges.push({ range, strategy: row.strategy });
  }
  return ranges;
}

function configOf(row: { is_active: number; strategy: RestrictionStrategy } | undefined): IpRestrictionConfig {
  return row ? { isActive: Number(row.is_active) === 1, strategy: row.strategy } : { ...DEFAULT_IP_RESTRICTION_CONFIG };
}

function toWire(row: IpRestrictionRow): IpRestriction {
  return {
    id: row.id,
    ip: row.ip,
    isActive: Number(row.is_active) === 1,
    description: row.description,
    strategy: row.strategy,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}

/** The canonical form of a submitted address or range; a 400 naming `field` otherwise. */
function canonical(field: string, ip: string): string {
  try {
    return canonicalIpRange(ip);
  } catch (err) {
    if (err instanceof IpParseError) throw Errors.validation(`${field}: ${err.message}`, { field });
    throw err;
  }
}

const alreadyListed = (ip: string, strategy: string) => new AppError(ErrorCodes.alreadyExists, 409, `${ip} is already on the ${strategy === 'ALLOW' ? 'allow' : 'block'} list`);
const notFound = () => Errors.notFound('IP restriction not found');

export function createIpRestrictionService(deps: { db: Db; clock: Clock; config: Config }): IpRestrictionService {
  const { db, clock } = deps;

  // Each tenant's config and, when it is on, its active entries: read at every sign-in, refresh and signed-in call.
  const restrictions = createTableCache<string, { config: IpRestrictionConfig; active: ActiveRange[] }>({ db, clock, max: TENANTS_KEPT, tables: ['ip_restriction_configs', 'ip_restrictions'] });

  async function isAllowed(tenantId: string, ip: string | null): Promise<boolean> {
    const { config, active } = await restrictions.get(tenantId, async () => {
      const config = configOf(await findIpRestrictionConfig(db, tenantId));
      if (!config.isActive) return { config, active: [] };
      const rows = await listActiveIpRanges(db, tenantId);
      return { config, active: rangesOf(rows.map((r) => ({ ...r, is_active: 1 }))) };
    });
    return evaluateIp(config, active, ip);
  }

  /**
   * Anti-lockout (seed 001 section 9): the state after a change, for the caller's own address. Refused
   * with 409 when it would shut the caller out, unless they confirmed it.
   */
  function assertNotSelfLockout(caller: AdminCaller, config: IpRestrictionConfig, rows: IpRestrictionRow[], confirmed: boolean | undefined): void {
    if (confirmed) return;
    if (!evaluateIp(config, rangesOf(rows), caller.ip)) throw selfLockoutError(caller.ip);
  }

  async function stateOf(trx: Db, tenantId: string): Promise<{ config: IpRestrictionConfig; rows: IpRestrictionRow[] }> {
    return { config: configOf(await findIpRestrictionConfig(trx, tenantId)), rows: await listAllIpRestrictions(trx, tenantId) };
  }

  return {
    isAllowed,

    async assertAllowed(tenantId, ip) {
      if (!(await isAllowed(tenantId, ip))) throw ipRestrictedError();
    },

    async list(caller, page) {
      const { rows, total } = await listIpRestrictions(db, caller.tenantId, page.offset ?? 0, page.limit ?? 50);
      return { items: rows.map(toWire), total };
    },

    async create(caller, body) {
      const ip = canonical('ip', body.ip);
      return db.transaction().execute(async (trx) => {
        if (await findIpRestrictionByIp(trx, caller.tenantId, ip, body.strategy)) throw alreadyListed(ip, body.strategy);
        const now = clock.now();
        const row: IpRestrictionRow = {
          id: newId(),
          tenant_id: caller.tenantId,
          ip,
          is_active: body.isActive === false ? 0 : 1,
          description: body.description ?? '',
          strategy: body.strategy,
          created_at: now,
          updated_at: now,
        };
        const { config, rows } = await stateOf(trx, caller.tenantId);
        assertNotSelfLockout(caller, config, [...rows, row], body.confirmSelfLockout);
        await insertIpRestriction(trx, row);
        const created = toWire(row);
        await recordAudit(trx, caller, { action: IpRestrictionAuditActions.created, description: `IP restriction ${ip} (${row.strategy}) created`, json: { old: null, new: created } }, now);
        return created;
      });
    },

    async update(caller, id, body) {
      return db.transaction().execute(async (trx) => {
        const existing = await findIpRestriction(trx, caller.tenantId, id);
        if (!existing) throw notFound();
        const ip = body.ip !== undefined ? canonical('ip', body.ip) : existing.ip;
        const strategy = body.strategy ?? existing.strategy;
        if (ip !== existing.ip || strategy !== existing.strategy) {
          const clash = await findIpRestrictionByIp(trx, caller.tenantId, ip, strategy);
          if (clash && clash.id !== id) throw alreadyListed(ip, strategy);
        }
        const now = clock.now();
        const next: IpRestrictionRow = {
          ...existing,
          ip,
          strategy,
          is_active: body.isActive === undefined ? Number(existing.is_active) : body.isActive ? 1 : 0,
          description: body.description ?? existing.description,
          updated_at: now,
        };
        const { config, rows } = await stateOf(trx, caller.tenantId);
        assertNotSelfLockout(caller, config, rows.map((r) => (r.id === id ? next : r)), body.confirmSelfLockout);
        await updateIpRestriction(trx, caller.tenantId, id, { ip, strategy, is_active: next.is_active, description: next.description, updated_at: now });
        const updated = toWire(next);
        await recordAudit(trx, caller, { action: IpRestrictionAuditActions.updated, description: `IP restriction ${ip} (${strategy}) updated`, json: { old: toWire(existing), new: updated } }, now);
        return updated;
      });
    },

    async remove(caller, id, confirmSelfLockout) {
      await db.transaction().execute(async (trx) => {
        const existing = await findIpRestriction(trx, caller.tenantId, id);
        if (!existing) throw notFound();
        const { config, rows } = await stateOf(trx, caller.tenantId);
        assertNotSelfLockout(caller, config, rows.filter((r) => r.id !== id), confirmSelfLockout);
        await deleteIpRestriction(trx, caller.tenantId, id);
        await recordAudit(trx, caller, { action: IpRestrictionAuditActions.deleted, description: `IP restriction ${existing.ip} (${existing.strategy}) deleted`, json: { old: toWire(existing), new: null } }, clock.now());
      });
    },

    async bulk(caller, body) {
      // Every address is checked before anything is saved: one bad entry saves none.
      const wanted = body.restrictions.map((r, i) => ({ ...r, ip: canonical(`restrictions.${i}.ip`, r.ip) }));
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const { config, rows } = await stateOf(trx, caller.tenantId);
        const byKey = new Map(rows.map((r) => [`${r.strategy} ${r.ip}`, r]));
        const changes: { old: IpRestrictionRow | null; next: IpRestrictionRow }[] = [];
        for (const entry of wanted) {
          const key = `${entry.strategy} ${entry.ip}`;
          const old = byKey.get(key) ?? null;
          const next: IpRestrictionRow = old
            ? { ...old, is_active: entry.isActive === undefined ? Number(old.is_active) : entry.isActive ? 1 : 0, description: entry.description ?? old.description, updated_at: now }
            : { id: newId(), tenant_id: caller.tenantId, ip: entry.ip, strategy: entry.strategy, is_active: entry.isActive === false ? 0 : 1, description: entry.description ?? '', created_at: now, updated_at: now };
          byKey.set(key, next);
          const earlier = changes.find((c) => c.next.id === next.id);
          if (earlier) earlier.next = next;
          else changes.push({ old, next });
        }
        assertNotSelfLockout(caller, config, [...byKey.values()], body.confirmSelfLockout);
        for (const { old, next } of changes) {
          if (old) await updateIpRestriction(trx, caller.tenantId, next.id, { is_active: next.is_active, description: next.description, updated_at: now });
          else await insertIpRestriction(trx, next);
        }
        const saved = changes.map((c) => toWire(c.next));
        await recordAudit(
          trx,
          caller,
          {
            action: IpRestrictionAuditActions.bulkSaved,
            description: `${saved.length} IP restriction${saved.length === 1 ? '' : 's'} saved in bulk`,
            json: { changes: changes.map((c) => ({ old: c.old ? toWire(c.old) : null, new: toWire(c.next) })) },
          },
          now,
        );
        return saved;
      });
    },

    async getConfig(caller) {
      return configOf(await findIpRestrictionConfig(db, caller.tenantId));
    },

    async saveConfig(caller, body) {
      return db.transaction().execute(async (trx) => {
        const old = configOf(await findIpRestrictionConfig(trx, caller.tenantId));
        const next: IpRestrictionConfig = { isActive: body.isActive, strategy: body.strategy };
        assertNotSelfLockout(caller, next, await listAllIpRestrictions(trx, caller.tenantId), body.confirmSelfLockout);
        const now = clock.now();
        await upsertIpRestrictionConfig(trx, { tenant_id: caller.tenantId, is_active: next.isActive ? 1 : 0, strategy: next.strategy, updated_at: now });
        await recordAudit(
          trx,
          caller,
          { action: IpRestrictionAuditActions.configUpdated, description: `IP restrictions ${next.isActive ? `active, strategy ${next.strategy}` : 'inactive'}`, json: { old, new: next } },
          now,
        );
        return next;
      });
    },

    async verify(caller) {
      const address = caller.ip ? parseClientAddress(caller.ip) : null;
      return { allowed: await isAllowed(caller.tenantId, caller.ip), ip: address ? formatAddress(address) : (caller.ip ?? '') };
    },

    async allowMyIp(caller) {
      const address = caller.ip ? parseClientAddress(caller.ip) : null;
      if (!address) throw Errors.validation('ip: the address of this request is not known, so it cannot be added', { field: 'ip' });
      const ip = formatAddress(address);
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const existing = await findIpRestrictionByIp(trx, caller.tenantId, ip, 'ALLOW');
        if (existing && Number(existing.is_active) === 1) return { entry: toWire(existing), created: false };
        if (existing) {
          const next = { ...existing, is_active: 1, updated_at: now };
          await updateIpRestriction(trx, caller.tenantId, existing.id, { is_active: 1, updated_at: now });
          const entry = toWire(next);
          await recordAudit(trx, caller, { action: IpRestrictionAuditActions.updated, description: `IP restriction ${ip} (ALLOW) activated as the admin's own address`, json: { old: toWire(existing), new: entry } }, now);
          return { entry, created: false };
        }
        const row: IpRestrictionRow = { id: newId(), tenant_id: caller.tenantId, ip, is_active: 1, description: MY_IP_DESCRIPTION, strategy: 'ALLOW', created_at: now, updated_at: now };
        await insertIpRestriction(trx, row);
        const entry = toWire(row);
        await recordAudit(trx, caller, { action: IpRestrictionAuditActions.created, description: `IP restriction ${ip} (ALLOW) created: the admin's own address`, json: { old: null, new: entry } }, now);
        return { entry, created: true };
      });
    },
  };
}
