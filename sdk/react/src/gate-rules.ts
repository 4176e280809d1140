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

/**
 * Is the user's tenant on `planId`? The tenant's plan as GET entitlements v2 names it (`planId`:
 * its live subscription, a retained trial, else the vendor's default plan). Nothing loaded, no
 * plan, or a server that names none: no plan matches.
 */
export function hasPlan(entitlements: EntitlementsData | null, planId: string): boolean {
  return typeof entitlements?.planId === 'string' && entitlements.planId === planId;
}
