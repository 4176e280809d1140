/**
 * Account settings of a tenant (seed 001 sections 2 "Account details tabs: settings, customLogin",
 * 3 "Account settings", 5 "Custom login settings with no changes", 7 "Tenants: account settings GET,
 * PUT, public GET").
 *
 * - The company name is the tenant's name; the application URL is the tenant's.
 * - A save changes only the fields sent; a save that changes nothing writes nothing (no audit row).
 * - Every save that changes something writes one audit row naming the fields and their old and new
 *   values (the logo only as "set" or "removed", never its bytes), in the same transaction.
 * - Logos are png, jpeg, gif or webp whose bytes match their type, at most ACCOUNT_LOGO_MAX_BYTES;
 *   never SVG. They are served from an immutable public URL, like profile pictures.
 * - The public view holds only what the tenant's login page needs: name, logo, application URL and login look.
 */
import {
  ACCOUNT_LOGO_MAX_BYTES,
  ACCOUNT_SETTINGS_DEFAULTS,
  AccountPaths,
  ErrorCodes,
  type AccountSettings,
  type PublicAccountSettings,
  type UpdateAccountSettingsRequest,
} from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import {
  deleteTenantLogosExcept,
  findAccountSettings,
  findTenantLogo,
  insertTenantLogo,
  updateTenantNameAndUrl,
  upsertAccountSettings,
  type AccountSettingsRow,
  type TenantLogoRow,
} from '../../db/queries/account-settings';
import { findTenant } from '../../db/queries/tenants';
import { AppError, Errors } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { AuditActions, recordAudit } from '../admin/audit-log';
import { MAGIC } from '../users/users';

export interface AccountSettingsService {
  get(caller: AdminCaller): Promise<AccountSettings>;
  update(caller: AdminCaller, body: UpdateAccountSettingsRequest): Promise<AccountSettings>;
  /** The public view of a tenant; all empty without one or for an unknown one. */
  getPublic(tenantId: string | undefined): Promise<PublicAccountSettings>;
  getLogo(id: string): Promise<TenantLogoRow | undefined>;
}

type Values = Omit<AccountSettings, 'tenantId' | 'updatedAt'>;

const tenantNotFound = () => Errors.notFound('Account not found');

/** '' and whitespace-only clear a field, like null. */
const orNull = (value: string | null | undefined): string | null => (value && value.trim() ? value.trim() : null);

/** Decodes and checks a logo data URL (the wire schema already checked its shape); applications' logos too. */
export function decodeLogo(dataUrl: string): { mime: string; bytes: Buffer } {
  const match = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/.exec(dataUrl);
  if (!match) throw new AppError(ErrorCodes.invalidImage, 400, 'logo must be a base64 data URL of a png, jpeg, gif or webp image');
  const mime = match[1]!;
  const bytes = Buffer.from(match[2]!, 'base64');
  if (bytes.length > ACCOUNT_LOGO_MAX_BYTES) throw new AppError(ErrorCodes.invalidImage, 400, `The logo must be at most ${ACCOUNT_LOGO_MAX_BYTES / 1024} KB`);
  // The declared type must match the bytes, so nothing else (an SVG, a page) is ever served as the logo.
  if (!MAGIC[mime]?.(bytes)) throw new AppError(ErrorCodes.invalidImage, 400, `logo content is not a valid ${mime.slice(6)} image`);
  return { mime, bytes };
}

/** The canonical name of a time zone (e.g. `utc` becomes `UTC`); the schema already checked it exists. */
function canonicalTimeZone(value: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
}

export function createAccountSettingsService(deps: { db: Db; clock: Clock; config: Pick<Config, 'publicUrl'> }): AccountSettingsService {
  const { db, clock, config } = deps;
  const logoUrl = (id: string | null) => (id ? `${config.publicUrl}${AccountPaths.accountLogo.replace('{logoId}', id)}` : null);

  function present(tenant: { id: string; name: string; application_url: string | null }, row: AccountSettingsRow | undefined): AccountSettings {
    return {
      tenantId: tenant.id,
      companyName: tenant.name,
      website: row?.website ?? null,
      address: row?.address ?? null,
      timezone: row?.timezone ?? ACCOUNT_SETTINGS_DEFAULTS.timezone,
      dateFormat: row?.date_format ?? ACCOUNT_SETTINGS_DEFAULTS.dateFormat,
      timeFormat: row?.time_format ?? ACCOUNT_SETTINGS_DEFAULTS.timeFormat,
      currency: row?.currency ?? ACCOUNT_SETTINGS_DEFAULTS.currency,
      logo: logoUrl(row?.logo_id ?? null),
      hasCustomLogin: row?.has_custom_login === 1,
      loginTitle: row?.login_title ?? null,
      loginColor: row?.login_color ?? null,
      applicationUrl: tenant.application_url,
      updatedAt: row ? new Date(Number(row.updated_at)).toISOString() : null,
    };
  }

  async function load(tenantId: string, executor: Db = db): Promise<AccountSettings> {
    const tenant = await findTenant(executor, tenantId);
    if (!tenant) throw tenantNotFound();
    return present(tenant, await findAccountSettings(executor, tenantId));
  }

  /** The values a save asks for, normalised the way they are stored. */
  function requested(body: UpdateAccountSettingsRequest): Partial<Values> {
    const next: Partial<Values> = {};
    if (body.companyName !== undefined) next.companyName = body.companyName.trim();
    if (body.website !== undefined) next.website = orNull(body.website);
    if (body.address !== undefined) next.address = orNull(body.address);
    if (body.timezone !== undefined) next.timezone = canonicalTimeZone(body.timezone);
    if (body.dateFormat !== undefined) next.dateFormat = body.dateFormat;
    if (body.timeFormat !== undefined) next.timeFormat = body.timeFormat;
    if (body.currency !== undefined) next.currency = body.currency;
    if (body.hasCustomLogin !== undefined) next.hasCustomLogin = body.hasCustomLogin;
    if (body.loginTitle !== undefined) next.loginTitle = orNull(body.loginTitle);
    if (body.loginColor !== undefined) next.loginColor = orNull(body.loginColor)?.toLowerCase() ?? null;
    if (body.applicationUrl !== undefined) next.applicationUrl = orNull(body.applicationUrl);
    return next;
  }

  return {
    get: (caller) => load(caller.tenantId),

    async update(caller, body) {
      const logo = typeof body.logo === 'string' ? decodeLogo(body.logo) : body.logo;
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const current = await load(caller.tenantId, trx);
        const next = requested(body);
        const changed = (Object.keys(next) as (keyof Values)[]).filter((field) => next[field] !== current[field]);
        const changes: Record<string, unknown> = Object.fromEntries(changed.map((field) => [field, { from: current[field], to: next[field] }]));
        // A new logo always counts (even the same picture again: its URL changes); removing one only when there is one.
        const logoChange = logo === undefined ? null : logo === null ? (current.logo ? 'removed' : null) : 'set';
        if (logoChange) changes.logo = logoChange;
        if (Object.keys(changes).length === 0) return current;

        let logoId: string | null | undefined;
        if (logo) {
          logoId = newId();
          await insertTenantLogo(trx, { id: logoId, tenant_id: caller.tenantId, mime: logo.mime, bytes: logo.bytes, created_at: now });
        } else if (logoChange === 'removed') logoId = null;

        const merged = { ...current, ...next };
        const columns = {
          website: merged.website,
          address: merged.address,
          timezone: merged.timezone,
          date_format: merged.dateFormat,
          time_format: merged.timeFormat,
          currency: merged.currency,
          has_custom_login: merged.hasCustomLogin ? 1 : 0,
          login_title: merged.loginTitle,
          login_color: merged.loginColor,
          updated_at: now,
          ...(logoId !== undefined ? { logo_id: logoId } : {}),
        };
        const existing = await findAccountSettings(trx, caller.tenantId);
        await upsertAccountSettings(trx, { tenant_id: caller.tenantId, logo_id: logoId ?? existing?.logo_id ?? null, ...columns }, columns);
        if (logoId !== undefined) await deleteTenantLogosExcept(trx, caller.tenantId, logoId);
        await updateTenantNameAndUrl(trx, caller.tenantId, {
          ...(changed.includes('companyName') ? { name: merged.companyName } : {}),
          ...(changed.includes('applicationUrl') ? { application_url: merged.applicationUrl } : {}),
        });
        const fields = Object.keys(changes);
        await recordAudit(
          trx,
          caller,
          { action: AuditActions.accountSettingsUpdated, description: `Account settings updated: ${fields.join(', ')}`, json: { fields, changes } },
          now,
        );
        return load(caller.tenantId, trx);
      });
    },

    async getPublic(tenantId) {
      const tenant = tenantId ? await findTenant(db, tenantId) : undefined;
      if (!tenant) return { companyName: null, logo: null, hasCustomLogin: false, applicationUrl: null, loginTitle: null, loginColor: null };
      const settings = present(tenant, await findAccountSettings(db, tenant.id));
      return {
        companyName: settings.companyName,
        logo: settings.logo,
        hasCustomLogin: settings.hasCustomLogin,
        applicationUrl: settings.applicationUrl,
        // The login look is shown only while custom login is on.
        loginTitle: settings.hasCustomLogin ? settings.loginTitle : null,
        loginColor: settings.hasCustomLogin ? settings.loginColor : null,
      };
    },

    getLogo: (id) => findTenantLogo(db, id),
  };
}
