/**
 * Reads `options.adminPortal` (untyped host input) into the settings the portal understands.
 * Unknown keys and invalid values are ignored, so a typo in the host's config never breaks the portal.
 */
import type { NavigationOverrides, NavigationVisibility, SectionId } from './navigation';

/** How a field, tab or action of a section is offered (seed 001 section 2: "hidden, view-only or editable"). */
export type FieldVisibility = 'hidden' | 'viewOnly' | 'editable';
export type ProfileField = 'name' | 'username' | 'phoneNumber' | 'address' | 'jobTitle' | 'email' | 'profilePicture';

/** Per section, per field or tab name: `adminPortal.fieldVisibility.account.currency = 'viewOnly'`. */
export type FieldVisibilityOptions = Partial<Record<SectionId, Readonly<Record<string, FieldVisibility>>>>;

export interface AdminPortalOptions {
  navigation: NavigationOverrides;
  fieldVisibility: FieldVisibilityOptions;
  /** The host's feature flags (`options.flags`), for sections that change with one (e.g. the security center's). */
  flags?: Readonly<Record<string, string>>;
  /**
   * The host's result callbacks per section (`adminPortal.callbacks.security`): each save or action
   * of that section reports `true`, or `false` on failure (seed 001 section 4).
   */
  callbacks?: Partial<Record<SectionId, (ok: boolean) => void>>;
}

const NAV_VISIBILITIES: readonly string[] = ['always', 'hidden', 'byPermissions'] satisfies NavigationVisibility[];
const FIELD_VISIBILITIES: readonly string[] = ['hidden', 'viewOnly', 'editable'] satisfies FieldVisibility[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Normalises the host's `adminPortal` options. */
export function readAdminPortalOptions(raw: unknown): AdminPortalOptions {
  const result: AdminPortalOptions = { navigation: {}, fieldVisibility: {} };
  if (!isRecord(raw)) return result;
  if (isRecord(raw.navigation)) {
    for (const [key, value] of Object.entries(raw.navigation)) {
      if (isRecord(value) && typeof value.visibility === 'string' && NAV_VISIBILITIES.includes(value.visibility)) {
        (result.navigation as Record<string, { visibility: NavigationVisibility }>)[key] = { visibility: value.visibility as NavigationVisibility };
      }
    }
  }
  if (isRecord(raw.fieldVisibility)) {
    for (const [section, fields] of Object.entries(raw.fieldVisibility)) {
      if (!isRecord(fields)) continue;
      const read: Record<string, FieldVisibility> = {};
      for (const [field, value] of Object.entries(fields)) {
        if (typeof value === 'string' && FIELD_VISIBILITIES.includes(value)) read[field] = value as FieldVisibility;
      }
      (result.fieldVisibility as Record<string, Record<string, FieldVisibility>>)[section] = read;
    }
  }
  if (isRecord(raw.callbacks)) {
    const callbacks = Object.entries(raw.callbacks).filter((entry): entry is [string, (ok: boolean) => void] => typeof entry[1] === 'function');
    if (callbacks.length > 0) result.callbacks = Object.fromEntries(callbacks) as AdminPortalOptions['callbacks'];
  }
  return result;
}

/**
 * How the host wants `field` (a field, tab or action name) of `section` offered; `editable` unless set.
 * Permissions still apply on top: a field the caller may not write is never more than view-only.
 */
export function fieldVisibility(options: AdminPortalOptions, section: SectionId, field: string): FieldVisibility {
  return options.fieldVisibility[section]?.[field] ?? 'editable';
}
