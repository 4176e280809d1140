/** Wire schemas of the account settings (seed 001 sections 3 "Account settings", 7 "Tenants"). */
import { z } from 'zod';
import { ACCOUNT_DATE_FORMATS, ACCOUNT_TIME_FORMATS, isCurrency, isTimeZone, isWebAddress } from './paths';

/** Not trimmed: the address is stored exactly as written, so it must be written exactly (isWebAddress). */
const httpUrl = (field: string) =>
  z.string().max(2048).refine(isWebAddress, `${field} must be a web address starting with http:// or https://, written out in full (such as https://example.com)`);

export const AccountSettings = z.object({
  tenantId: z.string(),
  companyName: z.string(),
  website: z.string().nullable(),
  address: z.string().nullable(),
  timezone: z.string(),
  dateFormat: z.string(),
  timeFormat: z.string(),
  currency: z.string(),
  logo: z.string().nullable(),
  hasCustomLogin: z.boolean(),
  loginTitle: z.string().nullable(),
  loginColor: z.string().nullable(),
  applicationUrl: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type AccountSettings = z.infer<typeof AccountSettings>;

/** PUT: only the fields sent change; null (or '') clears an optional field; `logo` null removes it. */
export const UpdateAccountSettingsRequest = z
  .object({
    companyName: z.string().trim().min(1, 'companyName is required').max(100),
    website: httpUrl('website').or(z.literal('')).nullable(),
    address: z.string().trim().max(500).nullable(),
    timezone: z.string().max(64).refine(isTimeZone, 'timezone must be an IANA time zone such as Europe/Paris'),
    dateFormat: z.enum(ACCOUNT_DATE_FORMATS),
    timeFormat: z.enum(ACCOUNT_TIME_FORMATS),
    currency: z.string().max(3).refine(isCurrency, 'currency must be an ISO 4217 code such as USD'),
    logo: z
      .string()
      .max(800_000)
      .regex(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/, 'logo must be a base64 data URL of a png, jpeg, gif or webp image')
      .nullable(),
    hasCustomLogin: z.boolean(),
    loginTitle: z.string().trim().max(100).nullable(),
    loginColor: z.string().trim().regex(/^#[0-9a-fA-F]{6}$/, 'loginColor must be a hex color such as #3366ff').or(z.literal('')).nullable(),
    applicationUrl: httpUrl('applicationUrl').or(z.literal('')).nullable(),
  })
  .partial()
  .strict();
export type UpdateAccountSettingsRequest = z.infer<typeof UpdateAccountSettingsRequest>;
