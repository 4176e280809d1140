import { permissionMatches } from './contract';

/** The parts of the current user a permission or role gate looks at (seed 001 section 3). */
export interface AccessSubject {
  superUser?: boolean;
  permissions?: ReadonlyArray<{ key: string }>;
  roles?: ReadonlyArray<{ key: string }>;
}

/** What a gate requires: every listed permission key and every listed role key. */
export interface GateRequirement {
  permissions?: readonly string[];
  roles?: readonly string[];
}

/** True when one of the granted permission keys covers `required` (either side may be a `*` wildcard). */
export function holdsPermission(subject: AccessSubject | null | undefined, required: string): boolean {
  return (subject?.permissions ?? []).some((granted) => permissionMatches(granted.key, required));
}

/**
 * Seed 001 sections 5 and 6: content is shown only for a super user, or a user holding every
 * required permission key and every required role key. An empty requirement passes.
 */
export function passesGate(subject: AccessSubject | null | undefined, requirement: GateRequirement): boolean {
  if (!subject) return false;
  if (subject.superUser) return true;
  const roleKeys = new Set((subject.roles ?? []).map((role) => role.key));
  return (requirement.permissions ?? []).every((key) => holdsPermission(subject, key)) && (requirement.roles ?? []).every((key) => roleKeys.has(key));
}
