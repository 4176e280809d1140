/**
 * Permission entitlement (seed 000 section 6): MISSING_PERMISSION without entitlement data or when
 * no held permission covers the key (`*` in a held key stands for any run of characters; every
 * other character is literal). A held permission no feature links to is entitled. Otherwise the
 * linked features combine with OR: the first entitled one settles it; when none is, the result is
 * BUNDLE_EXPIRED if any of them expired, else MISSING_FEATURE.
 */
import { isEntitledToFeature, result, type CheckOptions } from './feature';
import type { CheckAttributes, EntitlementExplanation, EntitlementResult, EntitlementsContext } from './types';

/** Whether the held permission `pattern` (with `*` wildcards) covers `key`. Linear: no regular expression. */
export function permissionCovers(pattern: string, key: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === key;
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (key.length < first.length + last.length || !key.startsWith(first) || !key.endsWith(last)) return false;
  let at = first.length;
  const end = key.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = key.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/** Is the user entitled to this permission (seed 000 section 6; patterns with `*`)? */
export function isEntitledToPermission(
  permissionKey: string,
  context: EntitlementsContext | null | undefined,
  attributes: CheckAttributes = {},
  options: CheckOptions = {},
): EntitlementResult {
  const permissions = context?.permissions;
  const held = permissions && typeof permissions === 'object' && permissionKey ? Object.keys(permissions).find((p) => permissionCovers(p, permissionKey)) : undefined;
  if (held === undefined) {
    return result(false, 'MISSING_PERMISSION', [{ source: 'permission', reason: `The user holds no permission that covers "${permissionKey}".` }], options);
  }
  const features = context?.features && typeof context.features === 'object' ? context.features : {};
  const linked = Object.keys(features).filter((key) => Array.isArray(features[key]?.linkedPermissions) && features[key].linkedPermissions.includes(permissionKey));
  if (!linked.length) {
    return result(true, undefined, [{ source: 'permission', reason: `Held through "${held}", and no feature is linked to it.` }], options);
  }
  const why: EntitlementExplanation[] = [];
  let expired = false;
  for (const key of linked) {
    const outcome = isEntitledToFeature(key, context, attributes, options);
    if (outcome.isEntitled) return outcome;
    expired ||= outcome.justification === 'BUNDLE_EXPIRED';
    why.push(...(outcome.explanation ?? []));
  }
  return result(false, expired ? 'BUNDLE_EXPIRED' : 'MISSING_FEATURE', why, options);
}
