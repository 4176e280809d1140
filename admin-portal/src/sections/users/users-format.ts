/** Display rules of the users section. */
import type { TenantUser } from '@gatehouse/shared/wire';

const GENERIC = "We're facing some difficulties, Please try again";

/** The message of a failed call (the API client's GatehouseError), else the seed's generic message. */
export function errorMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string' && error.message) return error.message;
  return GENERIC;
}

/** How a user is named in sentences: name, else email, else phone number. */
export function userLabel(user: Pick<TenantUser, 'name' | 'email' | 'phoneNumber'>): string {
  return user.name || user.email || user.phoneNumber || 'This user';
}

/** A date as the table shows it, e.g. "12 Mar 2026"; null is "Never". */
export function shortDate(iso: string | null): string {
  if (!iso) return 'Never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'Never' : date.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** The state badges of a user, in the order they matter. */
export function badgesOf(user: TenantUser): string[] {
  const badges: string[] = [];
  if (user.isDisabled) badges.push('Disabled');
  if (user.isLocked) badges.push('Locked');
  if (user.invitationPending) badges.push('Invited');
  else if (!user.verified) badges.push('Not activated');
  if (user.temporaryExpirationDate) badges.push(`Temporary until ${shortDate(user.temporaryExpirationDate)}`);
  return badges;
}
