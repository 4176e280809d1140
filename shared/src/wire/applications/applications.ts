/**
 * Wire schemas of applications (issue 15): the vendor's applications (operators) and their
 * assignment to a tenant's users (tenant admins). Paths and constants are in paths.ts.
 */
import { z } from 'zod';
import { isWebAddress } from '../account/paths';
import { APPLICATION_ACCESS_TYPES, APPLICATION_IDS_MAX } from './paths';

export * from './paths';

const webAddress = (field: string) =>
  z
    .string()
    .max(2048)
    .refine((v) => isWebAddress(v) && !/^[a-z]+:\/\/[^/]*@/i.test(v), `${field} must be a web address starting with http:// or https://, written out in full and without a user name or password (such as https://app.example.com)`);

/** A logo: an https address of an image, or an uploaded image as a base64 data URL (png, jpeg, gif or webp; never SVG). */
const logo = z
  .string()
  .max(800_000)
  .refine(
    (v) => (v.startsWith('data:') ? /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/.test(v) : isWebAddress(v) && v.startsWith('https://') && !/^https:\/\/[^/]*@/i.test(v)),
    'logo must be an https address of an image or a base64 data URL of a png, jpeg, gif or webp image',
  );

const appId = z.string().min(1).max(64);

export const ApplicationAccessTypeSchema = z.enum(APPLICATION_ACCESS_TYPES);

/** An application of the vendor as operators see it. */
export const VendorApplication = z.object({
  id: z.string(),
  name: z.string(),
  /** Where the application is: the users' link to it. */
  url: z.string(),
  /** The logo's address (an uploaded one is served by Gatehouse), or null. */
  logo: z.string().nullable(),
  accessType: ApplicationAccessTypeSchema,
  /** The hosted-login (OAuth) client linked to the application: sign-in through it follows accessType. */
  clientId: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type VendorApplication = z.infer<typeof VendorApplication>;

/** POST (operators): a new application; FREE_ACCESS unless said otherwise. */
export const VendorApplicationBody = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(120),
    url: webAddress('url'),
    logo: logo.nullable().optional(),
    accessType: ApplicationAccessTypeSchema.optional(),
    clientId: z.string().min(1).max(128).nullable().optional(),
  })
  .strict();
export type VendorApplicationBody = z.infer<typeof VendorApplicationBody>;

/** PATCH (operators): only the fields sent change; `logo` or `clientId` null removes it. */
export const VendorApplicationPatch = VendorApplicationBody.partial().strict();
export type VendorApplicationPatch = z.infer<typeof VendorApplicationPatch>;

/** "App data": what a tenant admin sees of an application (no client link). */
export const ApplicationData = VendorApplication.pick({ id: true, name: true, url: true, logo: true, accessType: true });
export type ApplicationData = z.infer<typeof ApplicationData>;

/** "Tenant apps": the applications the tenant's users may be given. */
export const TenantApplications = z.object({ tenantId: z.string(), appIds: z.array(z.string()) });
export type TenantApplications = z.infer<typeof TenantApplications>;

/** "User app ids": the applications a user is assigned in the tenant. */
export const UserApplicationIds = z.object({ userId: z.string(), appIds: z.array(z.string()) });
export type UserApplicationIds = z.infer<typeof UserApplicationIds>;

/** Seed 001 section 3 "Application: id, accessType, userIds": the users assigned in the tenant. */
export const ApplicationUsers = z.object({ id: z.string(), accessType: ApplicationAccessTypeSchema, userIds: z.array(z.string()) });
export type ApplicationUsers = z.infer<typeof ApplicationUsers>;

/** Seed 001 section 7 "assign or unassign (userId, appIds, tenantId)". `tenantId` is the tenant the call acts in. */
export const AssignApplicationsBody = z
  .object({
    userId: z.string().min(1).max(64),
    appIds: z
      .array(appId)
      .min(1, 'appIds must name at least one application')
      .max(APPLICATION_IDS_MAX)
      .refine((ids) => new Set(ids).size === ids.length, 'appIds must not repeat an application'),
    tenantId: z.string().min(1).max(64),
  })
  .strict();
export type AssignApplicationsBody = z.infer<typeof AssignApplicationsBody>;

/** `?ids=a,b` (seed 001 section 7: ids joined by commas), at most APPLICATION_IDS_MAX; required for users, optional for applications. */
const idList = (what: string) =>
  z
    .string()
    .max(APPLICATION_IDS_MAX * 66)
    .transform((s) => [...new Set(s.split(',').map((v) => v.trim()).filter(Boolean))])
    .pipe(z.array(z.string().max(64)).min(1, `ids: give at least one ${what} id`).max(APPLICATION_IDS_MAX, `ids: at most ${APPLICATION_IDS_MAX} ${what} ids`));

export const UserIdsOfAppsQuery = z.object({ ids: idList('user'), tenantId: z.string().max(64).optional() });
export const AppIdsQuery = z.object({ ids: idList('application').optional(), tenantId: z.string().max(64).optional() });
