/**
 * Preview routes of the Account settings section (docs/preview-mode.md): the sample account's
 * settings, and a save kept for the page's life and audited with the old and new values. Each
 * field is checked as the server checks it (the plain-data helpers of wire/account/paths.ts, so
 * zod stays out of the preview chunk); a bad one is refused with a 400 naming it, and nothing changes.
 */
import { ACCOUNT_DATE_FORMATS, ACCOUNT_TIME_FORMATS, AccountPaths, isCurrency, isTimeZone, isWebAddress, type AccountSettingsView } from '../wire/account/paths';
import { fail, ok, type PreviewState, type Route } from './routes';
import { PREVIEW_TENANT_ID } from './sample-data';

export const PREVIEW_ACCOUNT_SETTINGS: AccountSettingsView = {
  tenantId: PREVIEW_TENANT_ID,
  companyName: 'Preview Inc.',
  website: 'https://preview.example',
  address: '1 Sample Street, Springfield',
  timezone: 'UTC',
  dateFormat: 'MM/DD/YYYY',
  timeFormat: 'h:mm A',
  currency: 'USD',
  logo: null,
  hasCustomLogin: false,
  loginTitle: null,
  loginColor: null,
  applicationUrl: null,
  updatedAt: null,
};

type Check = (value: unknown) => string | null;
const optionalText = (field: string, max: number): Check => (v) => (v === null || (typeof v === 'string' && v.trim().length <= max) ? null : `${field} must be at most ${max} characters`);
const address = (field: string): Check => (v) => (v === null || v === '' || (typeof v === 'string' && isWebAddress(v)) ? null : `${field} must be a web address starting with http:// or https://, written out in full (such as https://example.com)`);
const oneOf = (field: string, values: readonly string[]): Check => (v) => (typeof v === 'string' && values.includes(v) ? null : `${field} must be one of ${values.join(', ')}`);

/** The fields a save may change, each with its check; a logo upload is not simulated. */
const CHECKS: Partial<Record<keyof AccountSettingsView, Check>> = {
  companyName: (v) => (typeof v === 'string' && v.trim().length >= 1 && v.trim().length <= 100 ? null : 'companyName is required'),
  website: address('website'),
  address: optionalText('address', 500),
  timezone: (v) => (typeof v === 'string' && isTimeZone(v) ? null : 'timezone must be an IANA time zone such as Europe/Paris'),
  dateFormat: oneOf('dateFormat', ACCOUNT_DATE_FORMATS),
  timeFormat: oneOf('timeFormat', ACCOUNT_TIME_FORMATS),
  currency: (v) => (typeof v === 'string' && isCurrency(v) ? null : 'currency must be an ISO 4217 code such as USD'),
  hasCustomLogin: (v) => (typeof v === 'boolean' ? null : 'hasCustomLogin must be true or false'),
  loginTitle: optionalText('loginTitle', 100),
  loginColor: (v) => (v === null || v === '' || (typeof v === 'string' && /^#[0-9a-fA-F]{6}$/.test(v)) ? null : 'loginColor must be a hex color such as #3366ff'),
  applicationUrl: address('applicationUrl'),
};

export function accountSettingsRoutes(state: PreviewState): Route[] {
  let settings: AccountSettingsView = { ...PREVIEW_ACCOUNT_SETTINGS };
  return [
    ['GET', AccountPaths.accountSettings, () => ok(settings)],
    ['PUT', AccountPaths.accountSettings, ({ body }) => {
      if ('logo' in body && body.logo !== null && body.logo !== settings.logo) return fail(400, 'logo: uploading a logo is not available in preview mode');
      const changes: Record<string, unknown> = {};
      for (const [field, check] of Object.entries(CHECKS)) {
        if (!(field in body)) continue;
        const problem = check!(body[field]);
        if (problem) return fail(400, problem);
        const value = body[field];
        changes[field] = typeof value === 'string' ? value.trim() || null : value;
      }
      const before = Object.fromEntries(Object.keys(changes).map((k) => [k, settings[k as keyof AccountSettingsView]]));
      settings = { ...settings, ...changes, updatedAt: state.iso() } as AccountSettingsView;
      state.audit('Account settings updated', `Account settings changed: ${JSON.stringify(before)} -> ${JSON.stringify(changes)}`);
      return ok(settings);
    }],
  ];
}
