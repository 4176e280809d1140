/**
 * Paths of entitlements (issue 13; seed 000 section 7.1 "GET entitlements v2"). Plain data, no
 * zod; the schemas are in entitlements.ts.
 */
export const EntitlementPaths = {
  /** GET (signed in): the caller's EntitlementsContext; `?explain=true` adds which plan, grant, flag or rule decided each feature. */
  userEntitlements: '/entitlements/resources/user-entitlements/v2',
} as const;

/** Claim of the access token carrying the compact entitlements: `{ f: { [featureKey]: expireTime } }` (-1 no expiry). */
export const ENTITLEMENTS_CLAIM = 'entitlements';

/** The error a browser check throws while entitlements loading is off (seed 000 section 6). */
export const ENTITLEMENTS_DISABLED_MESSAGE =
  'Entitlements are not loaded: enable them in the options (entitlementsOptions: { enabled: true }) to call this method.';
