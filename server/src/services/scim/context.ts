/** What every SCIM operation runs with: the connection its token proved (which alone decides the tenant), and the client. */
import type { ScimConnectionRow } from '../../db/queries/scim-connections';
import type { AuditActor } from '../admin/audit-log';
import type { ScimDiff } from './request-log';

export interface ScimCaller {
  connection: ScimConnectionRow;
  /** Always `connection.tenant_id`. */
  tenantId: string;
  ip: string | null;
  userAgent: string | null;
  /** The tenant's SCIM root, e.g. https://id.example.com/scim/v2 (no trailing slash). */
  baseUrl: string;
}

/** What a write changed, for the request log. */
export interface ScimChange {
  resourceType: 'User' | 'Group';
  resourceId: string;
  diff: ScimDiff | null;
}

/** The audit actor of a SCIM change: no user, the connection named in the record. */
export function scimActor(caller: ScimCaller): AuditActor {
  return { tenantId: caller.tenantId, userId: null, email: null, ip: caller.ip, userAgent: caller.userAgent };
}

/** SCIM audit actions (seed 001 section 3 "Audit log"); the connection id and source are in each record's json. */
export const ScimResourceAuditActions = {
  userProvisioned: 'User provisioned by SCIM',
  userUpdated: 'User updated by SCIM',
  userDeprovisioned: 'User deprovisioned by SCIM',
  groupProvisioned: 'Group provisioned by SCIM',
  groupUpdated: 'Group updated by SCIM',
  groupDeprovisioned: 'Group deprovisioned by SCIM',
} as const;
