/**
 * Reads `options.adminPortal` (untyped host input) into the settings the portal understands.
 * Unknown keys and invalid values are ignored, so a typo in the host's config never breaks the portal.
 */
import type { NavigationOverrides, NavigationVisibility } from './navigation';

export type FieldVisibility = 'hidden' | 'viewOnly' | 'editable';
export type ProfileField = 'name' | 'phoneNumber' | 'address' | 'jobTitle' | 'email' | 'profilePicture';

export interface AdminPortalOptions {
  navigation: NavigationOverrides;
  fieldVisibility: { profile: Partial<Record<ProfileField, FieldVisibility>> };
}

const NAV_VISIBILITIES: readonly string[] = ['always', 'hidden', 'byPermissions'] satisfies NavigationVisibility[];
const FIELD_VISIBILITIES: readonly string[] = ['hidden', 'viewOnly', 'editable'] satisfies FieldVisibility[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Normalises the host's `adminPortal` options. */
export function readAdminPortalOptions(raw: unknown): AdminPortalOptions {
  const result: AdminPortalOptions = { navigation: {}, fieldVisibility: { profile: {} } };
  if (!isRecord(raw)) return result;
  if (isRecord(raw.navigation)) {
    for (const [key, value] of Object.entries(raw.navigation)) {
      if (isRecord(value) && typeof value.visibility === 'string' && NAV_VISIBILITIES.includes(value.visibility)) {
        (result.navigation as Record<string, { visibility: NavigationVisibility }>)[key] = { visibility: value.visibility as NavigationVisibility };
      }
    }
  }
  const profile = isRecord(raw.fieldVisibility) ? raw.fieldVisibility.profile : undefined;
  if (isRecord(profile)) {
    for (const [key, value] of Object.entries(profile)) {
      if (typeof value === 'string' && FIELD_VISIBILITIES.includes(value)) {
        (result.fieldVisibility.profile as Record<string, FieldVisibility>)[key] = value as FieldVisibility;
      }
    }
  }
  return result;
}
