/**
 * Paths and choices of the account settings (seed 001 sections 2 "Account details tabs: settings,
 * customLogin", 3 "Account settings", 7 "Tenants: account settings GET, PUT, public GET"), without
 * zod: the admin portal's account section and the server share them.
 */
const accountSettings = '/tenants/resources/account-settings/v1';

export const AccountPaths = {
  /** GET: the tenant's settings; PUT (partial body): changes them (fe.secure.read|write.accountSettings). */
  accountSettings,
  /** GET ?tenantId= (no sign-in): only what anyone may see: name, logo, application URL and custom login look. */
  accountSettingsPublic: `${accountSettings}/public`,
  /** GET: a logo's bytes (public, immutable). */
  accountLogo: `${accountSettings}/logo/{logoId}`,
} as const;

/** Date formats offered (moment-style tokens, as hosts pass them on to their own formatters). */
export const ACCOUNT_DATE_FORMATS = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD', 'DD.MM.YYYY', 'D MMM YYYY'] as const;
export type AccountDateFormat = (typeof ACCOUNT_DATE_FORMATS)[number];
/** Time formats offered: 12-hour and 24-hour clock. */
export const ACCOUNT_TIME_FORMATS = ['h:mm A', 'HH:mm'] as const;
export type AccountTimeFormat = (typeof ACCOUNT_TIME_FORMATS)[number];

/** What a tenant that never saved its settings gets (seed 001 section 9: default currency usd). */
export const ACCOUNT_SETTINGS_DEFAULTS = { timezone: 'UTC', dateFormat: 'MM/DD/YYYY', timeFormat: 'h:mm A', currency: 'USD' } as const;

/** Largest logo accepted, in bytes (decoded), and the image types allowed (never SVG: it can carry script). */
export const ACCOUNT_LOGO_MAX_BYTES = 512 * 1024;
export const ACCOUNT_LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** True for a time zone the runtime's IANA database knows (aliases such as US/Eastern included). */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

let currencies: ReadonlySet<string> | null = null;
/** True for an ISO 4217 code the runtime knows (upper case, e.g. USD). */
export function isCurrency(value: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(value);
}

/**
 * True for an absolute http(s) address with a real host name (a dot in it, or localhost), written
 * the way the URL parser writes it back: `https:evil.com`, `http:\\evil.com` or ` https://x.com`
 * parse, but into another string, and a browser or mail client may read them otherwise. Only the
 * "/" the parser adds to a bare origin (`https://example.com`) is allowed to differ.
 */
export function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
    if (url.href !== value && !(url.href === `${value}/` && url.pathname === '/' && !url.search && !url.hash)) return false;
    return url.hostname === 'localhost' || /\.[a-z0-9-]+$/i.test(url.hostname) || /^\[[0-9a-f:.]+\]$/i.test(url.hostname);
  } catch {
    return false;
  }
}

/** The account settings as the API answers them (the zod schema is wire/account/settings.ts). */
export interface AccountSettingsView {
  tenantId: string;
  /** The tenant's name. */
  companyName: string;
  website: string | null;
  address: string | null;
  /** IANA time zone, e.g. Europe/Paris. */
  timezone: string;
  dateFormat: string;
  timeFormat: string;
  /** ISO 4217 code, e.g. USD. */
  currency: string;
  /** Public URL of the logo, or null. */
  logo: string | null;
  /** Custom login: the tenant's own login box look (title, colour, the logo above). */
  hasCustomLogin: boolean;
  loginTitle: string | null;
  loginColor: string | null;
  /** Where the tenant's users go after signing in (http or https URL). */
  applicationUrl: string | null;
  updatedAt: string | null;
}

/** The public subset: safe for anyone who knows the tenant id (all empty without one). */
export interface PublicAccountSettingsView {
  companyName: string | null;
  logo: string | null;
  hasCustomLogin: boolean;
  applicationUrl: string | null;
  /** Set only while custom login is on. */
  loginTitle: string | null;
  loginColor: string | null;
}
