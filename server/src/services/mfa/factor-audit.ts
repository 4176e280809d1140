/**
 * Audit records of second-factor changes (issue 11 section 4: MFA enrolment and removal), in the
 * tenant the user acts in. Names a factor the way its owner recognises it, never by a secret.
 */
import type { Db } from '../../db';
import type { MfaDeviceRow } from '../../db/queries/mfa-devices';
import { findUserById } from '../../db/queries/users';
import { AuditActions, recordUserAudit } from '../admin/audit-log';
import { maskPhoneNumber } from '../platform/phone';

type Client = { ip: string | null; userAgent?: string | null };

/** 'authenticator app', 'emailed codes', 'SMS to +44 ••• 00', 'security key "YubiKey"'. */
export function factorName(device: Pick<MfaDeviceRow, 'type' | 'phone_number' | 'name' | 'device_type'>): string {
  if (device.type === 'authenticator') return 'authenticator app';
  if (device.type === 'email') return 'emailed codes';
  if (device.type === 'sms') return `SMS to ${maskPhoneNumber(device.phone_number ?? '')}`;
  const kind = device.device_type === 'platform' ? "this device's authenticator" : 'security key';
  return device.name ? `${kind} "${device.name}"` : kind;
}

/** A second factor was added (self-service or at a forced enrolment during sign-in). */
export async function recordFactorAdded(db: Db, userId: string, factor: string, client: Client, now: number, tenantId?: string): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) return;
  await recordUserAudit(db, user, client, { action: AuditActions.mfaEnrolled, description: `Second factor added: ${factor}`, json: { factor } }, now, tenantId);
}

/** A second factor was removed; removing the last one turns MFA off, which is High. */
export async function recordFactorRemoved(db: Db, userId: string, factor: string, allRemoved: boolean, client: Client, now: number, tenantId?: string): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) return;
  await recordUserAudit(
    db,
    user,
    client,
    {
      action: AuditActions.mfaRemoved,
      description: allRemoved ? `Second factor removed: ${factor}; MFA is now off` : `Second factor removed: ${factor}`,
      severity: allRemoved ? 'High' : 'Info',
      json: { factor, mfaOff: allRemoved },
    },
    now,
    tenantId,
  );
}
