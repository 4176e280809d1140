/**
 * The account section's rules (seed 001 sections 2, 3, 5): which fields each tab edits, what a save
 * sends (only the editable fields that changed), and the choices the pickers offer.
 */
import { ACCOUNT_DATE_FORMATS, ACCOUNT_LOGO_MAX_BYTES, ACCOUNT_LOGO_TYPES, ACCOUNT_TIME_FORMATS, type AccountSettingsView } from '@gatehouse/shared/admin-paths';

/** Seed 001 section 2: "Account details tabs: settings, customLogin". */
export type AccountTab = 'settings' | 'customLogin';

/** Text-like fields each tab edits (the logo is handled apart, as a file). */
export const TAB_FIELDS = {
  settings: ['companyName', 'website', 'address', 'timezone', 'dateFormat', 'timeFormat', 'currency'],
  customLogin: ['hasCustomLogin', 'loginTitle', 'loginColor', 'applicationUrl'],
} as const satisfies Record<AccountTab, readonly (keyof AccountSettingsView)[]>;

export type SettingsField = (typeof TAB_FIELDS)['settings'][number];
export type CustomLoginField = (typeof TAB_FIELDS)['customLogin'][number];
export type AccountField = SettingsField | CustomLoginField;

/** What the form holds: strings for text fields (empty for none), a boolean for the switch. */
export type AccountDraft = { [K in AccountField]: K extends 'hasCustomLogin' ? boolean : string };
export type AccountErrors = Partial<Record<AccountField | 'logo', string>>;

export function draftFrom(settings: AccountSettingsView): AccountDraft {
  return {
    companyName: settings.companyName,
    website: settings.website ?? '',
    address: settings.address ?? '',
    timezone: settings.timezone,
    dateFormat: settings.dateFormat,
    timeFormat: settings.timeFormat,
    currency: settings.currency,
    hasCustomLogin: settings.hasCustomLogin,
    loginTitle: settings.loginTitle ?? '',
    loginColor: settings.loginColor ?? '',
    applicationUrl: settings.applicationUrl ?? '',
  };
}

/** The body of a save: the given (editable) fields whose value differs from the stored one; '' clears. */
export function changedFields(settings: AccountSettingsView, draft: AccountDraft, fields: readonly AccountField[]): Partial<Record<AccountField, string | boolean | null>> {
  const stored = draftFrom(settings);
  const body: Partial<Record<AccountField, string | boolean | null>> = {};
  for (const field of fields) {
    const value = draft[field];
    const same = typeof value === 'string' ? value.trim() === String(stored[field]).trim() : value === stored[field];
    if (!same) body[field] = typeof value === 'string' ? value.trim() || (field === 'companyName' ? '' : null) : value;
  }
  return body;
}

/** Checks only what cannot be sent at all (as catalog keys); everything else the server checks and names (see fieldErrorsFrom). */
export function validateDraft(body: Partial<Record<AccountField, unknown>>): AccountErrors {
  return body.companyName !== undefined && !String(body.companyName).trim() ? { companyName: 'account.companyNameMissing' } : {};
}

/** Splits the server's `field: message` errors into field errors (named fields) and the rest. */
export function fieldErrorsFrom(messages: readonly string[], fields: readonly string[]): { fields: AccountErrors; other: string[] } {
  const result: AccountErrors = {};
  const other: string[] = [];
  for (const message of messages) {
    const match = /^(\w+): (.+)$/.exec(message);
    if (match && fields.includes(match[1]!)) result[match[1] as AccountField] ??= match[2]!;
    else other.push(message);
  }
  return { fields: result, other };
}

/** The largest logo, in KB, for the hint and the message. */
export const LOGO_MAX_KB = ACCOUNT_LOGO_MAX_BYTES / 1024;

/** Why a picked logo can't be used (a catalog key; its message takes `{kb}`), or null when it can. */
export function logoProblem(file: { type: string; size: number }): string | null {
  if (!(ACCOUNT_LOGO_TYPES as readonly string[]).includes(file.type)) return 'account.logo.wrongType';
  if (file.size > ACCOUNT_LOGO_MAX_BYTES) return 'account.logo.tooLarge';
  return null;
}

export interface Choice {
  value: string;
  label: string;
}

/** Every IANA time zone the browser knows, labelled with its current UTC offset; `current` is always offered. */
export function timeZoneChoices(current: string, now = new Date(), locale = 'en'): Choice[] {
  const zones = new Set<string>(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []);
  zones.add('UTC');
  if (current) zones.add(current);
  return [...zones].sort().map((zone) => {
    let offset = '';
    try {
      offset = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(now).find((p) => p.type === 'timeZoneName')?.value ?? '';
    } catch {
      // An unknown zone (a stored value this browser lacks) is offered without its offset.
    }
    return { value: zone, label: offset ? `${zone.replace(/_/g, ' ')} (${offset})` : zone.replace(/_/g, ' ') };
  });
}

/** Every ISO 4217 currency the browser knows, as "EUR · Euro"; `current` is always offered. */
export function currencyChoices(current: string, locale = 'en'): Choice[] {
  const codes = new Set<string>(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : []);
  if (current) codes.add(current);
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([locale], { type: 'currency' });
  } catch {
    names = null;
  }
  return [...codes].sort().map((code) => {
    const name = names?.of(code);
    return { value: code, label: name && name !== code ? `${code} · ${name}` : code };
  });
}

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `date` written in one of the offered formats (their tokens: YYYY, MM, MMM, DD, D, HH, h, mm, A). */
export function formatExample(format: string, date: Date): string {
  const tokens: Record<string, string> = {
    YYYY: String(date.getFullYear()),
    MMM: MONTHS[date.getMonth()]!,
    MM: pad(date.getMonth() + 1),
    DD: pad(date.getDate()),
    D: String(date.getDate()),
    HH: pad(date.getHours()),
    h: String(date.getHours() % 12 || 12),
    mm: pad(date.getMinutes()),
    A: date.getHours() < 12 ? 'AM' : 'PM',
  };
  return format.replace(/YYYY|MMM|MM|DD|D|HH|h|mm|A/g, (token) => tokens[token] ?? token);
}

export function dateFormatChoices(current: string, now = new Date()): Choice[] {
  const formats = new Set<string>([...ACCOUNT_DATE_FORMATS, current]);
  return [...formats].map((format) => ({ value: format, label: `${format} (${formatExample(format, now)})` }));
}

/** `names` says the two clock styles in the portal's language: '24-hour' and '12-hour' in English. */
export function timeFormatChoices(current: string, now = new Date(), names: { h24: string; h12: string } = { h24: '24-hour', h12: '12-hour' }): Choice[] {
  const formats = new Set<string>([...ACCOUNT_TIME_FORMATS, current]);
  return [...formats].map((format) => ({ value: format, label: `${format === 'HH:mm' ? names.h24 : format === 'h:mm A' ? names.h12 : format} (${formatExample(format, now)})` }));
}
