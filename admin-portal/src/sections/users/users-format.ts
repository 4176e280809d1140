/** Display rules of the users section. */
import type { TenantUser } from '@gatehouse/shared/wire';
import type { Translator } from '../../contract';
import { shortDate } from '../../format';

/** Users made by a SCIM connection (managedBy scim2): read-only here, changed in the identity provider. */
export function isManagedByScim(user: Pick<TenantUser, 'managedBy'>): boolean {
  return user.managedBy === 'scim2';
}

/** The state badges of a user, in the order they matter. */
export function badgesOf(user: TenantUser, t: Translator): string[] {
  const badges: string[] = [];
  if (user.isDisabled) badges.push(t.t('users.badge.disabled'));
  if (user.isLocked) badges.push(t.t('users.badge.locked'));
  if (user.invitationPending) badges.push(t.t('users.badge.invited'));
  else if (!user.verified) badges.push(t.t('users.badge.notActivated'));
  if (user.temporaryExpirationDate) badges.push(t.t('users.badge.temporaryUntil', { date: shortDate(t, user.temporaryExpirationDate) }));
  if (isManagedByScim(user)) badges.push(t.t('users.badge.readOnly'));
  return badges;
}
