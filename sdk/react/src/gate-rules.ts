/**
 * Seed 000 section 6 as plain functions, so gates and hooks share one reading of it.
 */
import type { EntitlementsData, GatehouseUser } from './types.js';

/** A gate passes for a super user, or a user holding every required permission key and every required role key. */
export function passesGate(user: GatehouseUser | null, required: { permissions?: readonly string[]; roles?: readonly string[] }): boolean {
  if (!user) return false;
  if (user.superUser === true) return true;
  const held = new Set((user.permissions ?? []).map((p) => p.key));
  const roles = new Set((user.roles ?? []).map((r) => r.key));
  return (required.permissions ?? []).every((key) => held.has(key)) && (required.roles ?? []).every((key) => roles.has(key));
}

const NO_EXPIRATION = -1;

/**
 * Is the user on `planId`? The browser's entitlements do not carry the tenant's plan id, so this
 * reads it from the features: a plan counts when a feature it grants is held with no expiry
 * (what a plan gives; grants with an end date do not count).
 */
export function hasPlan(entitlements: EntitlementsData | null, planId: string): boolean {
  if (!entitlements) return false;
  return Object.values(entitlements.features).some((f) => f.planIds.includes(planId) && f.expireTime === NO_EXPIRATION);
}
