/**
 * Audit records of the Operator area (issue 13): every change an operator makes is written in the
 * operator's own tenant (the token's), with the old and new values, never a secret (a client secret
 * is recorded only as "rotated").
 */
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';

/** The actions operators' records carry (filterable in the audit log). */
export const OperatorAuditActions = {
  userPromoted: 'operator.user.promoted',
  userDemoted: 'operator.user.demoted',
  planCreated: 'operator.plan.created',
  planUpdated: 'operator.plan.updated',
  planDeleted: 'operator.plan.deleted',
  planDeactivated: 'operator.plan.deactivated',
  featureCreated: 'operator.feature.created',
  featureUpdated: 'operator.feature.updated',
  featureDeleted: 'operator.feature.deleted',
  flagCreated: 'operator.feature-flag.created',
  flagUpdated: 'operator.feature-flag.updated',
  flagDeleted: 'operator.feature-flag.deleted',
  grantCreated: 'operator.grant.created',
  grantDeleted: 'operator.grant.deleted',
  applicationCreated: 'operator.application.created',
  applicationUpdated: 'operator.application.updated',
  applicationDeleted: 'operator.application.deleted',
  applicationSecretRotated: 'operator.application.secret-rotated',
  /** The vendor's applications (issue 15), not the OAuth clients above. */
  vendorApplicationCreated: 'operator.vendor-application.created',
  vendorApplicationUpdated: 'operator.vendor-application.updated',
  vendorApplicationDeleted: 'operator.vendor-application.deleted',
  /** CDN rollouts (issue 18): a bundle version published, and the rollout changes. */
  cdnPublished: 'operator.cdn.published',
  cdnPromoted: 'operator.cdn.promoted',
  cdnRolledBack: 'operator.cdn.rolled-back',
  cdnCanaryRemoved: 'operator.cdn.canary-removed',
  cdnPinRemoved: 'operator.cdn.pin-removed',
  cdnPruned: 'operator.cdn.pruned',
} as const;

export type OperatorAuditAction = (typeof OperatorAuditActions)[keyof typeof OperatorAuditActions];

/** Writes one operator record; `db` may be the change's transaction, so both commit together. */
export function recordOperatorAudit(db: Db, clock: Clock, caller: AdminCaller, action: OperatorAuditAction, description: string, json: { old?: unknown; new?: unknown } & Record<string, unknown>): Promise<void> {
  return recordAudit(db, caller, { action, description, json }, clock.now());
}
