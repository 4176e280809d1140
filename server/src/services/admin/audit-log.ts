/**
 * The audit log (seed 001 section 3 "Audit log": createdAt, email, action, description, ip, severity,
 * userAgent, json, tenantId). Every state-changing admin call, and every authentication event of a
 * user (sign-in and its failures, sign-out, token reuse, lockout, password, MFA, passkey, email and
 * phone changes, impersonation), writes its record through `recordAudit` (or `recordUserAudit`,
 * which finds the user's tenant), the only writers of the `audits` table; the audits list and CSV
 * export read it. Records hold ids, names and the fields changed, never a secret (no tokens, codes
 * or passwords). A record whose action stands for a catalogue event also raises that event
 * (services/connectivity/audit-events.ts), through the same transaction.
 */
import { randomHex } from '../../crypto';
import type { Db } from '../../db';
import { auditTenantOf, insertAudit } from '../../db/queries/audits';
import { raiseAuditEvents } from '../connectivity/audit-events';
import type { AdminCaller } from './access';

/** Seed 001: severities seen in the audit log. */
export type AuditSeverity = 'Info' | 'High';

/** Who acted and from where: an admin caller, or a user acting for themselves (e.g. joining by invite link). */
export interface AuditActor {
  tenantId: string;
  userId: string | null;
  email: string | null;
  ip: string | null;
  userAgent: string | null;
}

export interface AuditEvent {
  /** Short, fixed name of what happened (one of AuditActions), filterable in the list. */
  action: string;
  /** One sentence for people, naming the object. */
  description: string;
  severity?: AuditSeverity;
  /** Details: ids and changed fields. */
  json?: Record<string, unknown>;
}

/** The actions this slice records. */
export const AuditActions = {
  userRolesUpdated: 'User roles updated',
  userRemoved: 'User removed from account',
  userDisabled: 'User disabled',
  userEnabled: 'User enabled',
  userLocked: 'User locked',
  userUnlocked: 'User unlocked',
  userMadeTemporary: 'User made temporary',
  userMadePermanent: 'User made permanent',
  activationResent: 'Activation email resent',
  usersBulkInvited: 'Users invited in bulk',
  userInvited: 'User invited',
  inviteLinkCreated: 'Invite link created',
  inviteLinkUpdated: 'Invite link updated',
  inviteLinkDeleted: 'Invite link deleted',
  joinedByInviteLink: 'User joined by invite link',
  roleCreated: 'Role created',
  roleUpdated: 'Role updated',
  roleDeleted: 'Role deleted',
  rolePermissionsSet: 'Role permissions updated',
  permissionAttachedToRoles: 'Permission added to roles',
  permissionCreated: 'Permission created',
  permissionUpdated: 'Permission updated',
  permissionDeleted: 'Permission deleted',
  categoryCreated: 'Permission category created',
  categoryUpdated: 'Permission category updated',
  categoryDeleted: 'Permission category deleted',
  groupCreated: 'Group created',
  groupUpdated: 'Group updated',
  groupDeleted: 'Group deleted',
  groupRolesAdded: 'Roles added to group',
  groupRolesRemoved: 'Roles removed from group',
  groupUsersAdded: 'Users added to group',
  groupUsersRemoved: 'Users removed from group',
  subAccountCreated: 'Sub-account created',
  subAccountUpdated: 'Sub-account updated',
  subAccountDeleted: 'Sub-account deleted',
  subAccountManagementSet: 'Sub-account management updated',
  subAccountHierarchySettings: 'Sub-account hierarchy settings updated',
  subAccountUsersAdded: 'Users added to sub-account',
  subAccountUserRemoved: 'User removed from sub-account',
  subAccountUserRolesSet: 'User roles in sub-account updated',
  subAccountAccessSet: 'Sub-account access updated',
  accountSettingsUpdated: 'Account settings updated',
  sessionRevoked: 'Session signed out',
  otherSessionsRevoked: 'Other sessions signed out',
  // Authentication and the user's own account security (issue 11), in the user's tenant.
  signedIn: 'User signed in',
  signInFailed: 'Sign-in failed',
  signedOut: 'User signed out',
  refreshTokenReused: 'Refresh token reused',
  passwordReset: 'Password reset',
  passwordChanged: 'Password changed',
  mfaEnrolled: 'MFA enrolled',
  mfaRemoved: 'MFA removed',
  recoveryCodesRegenerated: 'Recovery codes regenerated',
  passkeyAdded: 'Passkey added',
  passkeyRemoved: 'Passkey removed',
  emailChangeRequested: 'Email change requested',
  emailChanged: 'Email changed',
  phoneChanged: 'Phone number changed',
  impersonationStarted: 'Impersonation started',
  // Tenant security (issue 12).
  sessionsPolicyUpdated: 'Sessions policy updated',
  // Applications (issue 15).
  userApplicationsAssigned: 'User assigned to applications',
  userApplicationsUnassigned: 'User unassigned from applications',
} as const;

/** The actor of an admin call. */
export function actorOf(caller: AdminCaller): AuditActor {
  return { tenantId: caller.tenantId, userId: caller.userId, email: caller.email, ip: caller.ip, userAgent: caller.userAgent };
}

/**
 * The id of an audit record written at `now`: the records of one time are listed by id (the list's
 * order is time, then id), so this process's records of one millisecond get ids in the order they
 * were written (a wrong password, then the lockout it caused), where random ids put them in any
 * order. 32 hex digits: the time (12), a count within that millisecond in this process (4), and 16
 * random. Records of one millisecond from different processes keep an arbitrary order.
 */
export function auditRecordId(now: number): string {
  if (now !== lastAuditTime) {
    lastAuditTime = now;
    auditsThisTime = 0;
  }
  const count = Math.min(auditsThisTime++, 0xffff);
  const time = Math.max(0, Math.min(Math.trunc(now), 0xffffffffffff));
  return `${time.toString(16).padStart(12, '0')}${count.toString(16).padStart(4, '0')}${randomHex(8)}`;
}

let lastAuditTime = Number.NaN;
let auditsThisTime = 0;

/** Writes one audit record; `db` may be a transaction, so the record commits with the change it describes. */
export async function recordAudit(db: Db, actor: AuditActor | AdminCaller, event: AuditEvent, now: number): Promise<void> {
  const who = 'auth' in actor ? actorOf(actor) : actor;
  await insertAudit(db, {
    id: auditRecordId(now),
    tenant_id: who.tenantId,
    user_id: who.userId,
    email: who.email,
    action: event.action,
    description: event.description.slice(0, 1000),
    ip: who.ip,
    user_agent: who.userAgent?.slice(0, 512) ?? null,
    severity: event.severity ?? 'Info',
    json: event.json ? JSON.stringify(event.json) : null,
    created_at: now,
  });
  // The catalogue events this change raises (issue 16), in the same transaction as the record.
  await raiseAuditEvents(db, { tenantId: who.tenantId, actor: { userId: who.userId, email: who.email }, action: event.action, json: event.json ?? {} }, now);
}

/** The user an authentication event is about. */
export interface AuditSubject {
  id: string;
  email: string | null;
  last_tenant_id?: string | null;
}

/**
 * Writes one record about a user's own authentication or account security, in the user's tenant:
 * `tenantId` when the event has one (a session's), else the user's last tenant, else their oldest
 * membership. A user in no tenant gets no record (there is no tenant whose admins could read it).
 * `db` may be a transaction, so the record commits with the change it describes.
 */
export async function recordUserAudit(
  db: Db,
  user: AuditSubject,
  client: { ip: string | null; userAgent?: string | null },
  event: AuditEvent,
  now: number,
  tenantId?: string | null,
): Promise<void> {
  const tenant = tenantId ?? (await auditTenantOf(db, user.id, user.last_tenant_id ?? null));
  if (!tenant) return;
  await recordAudit(db, { tenantId: tenant, userId: user.id, email: user.email, ip: client.ip, userAgent: client.userAgent ?? null }, event, now);
}
