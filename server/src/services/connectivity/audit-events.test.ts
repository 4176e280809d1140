import { describe, expect, it } from 'vitest';
import { ApiTokenAuditActions } from '../admin/api-tokens';
import { AuditActions } from '../admin/audit-log';
import { SubscriptionAuditActions } from '../billing/subscriptions';
import { ScimAuditActions } from '../scim/connections';
import { ScimResourceAuditActions } from '../scim/context';
import { EmailDomainAuditActions } from '../security/email-domain-restrictions';
import { IpRestrictionAuditActions } from '../security/ip-restrictions';
import { SECURITY_POLICY_UPDATED } from '../security/policies';
import { SsoAuditActions } from '../sso/configurations';
import { EVENT_RAISING_ACTIONS } from './audit-events';

/** Every audit action a service records (the ones that may stand for a catalogue event). */
const RECORDED = new Set<string>([
  ...Object.values(AuditActions),
  ...Object.values(ApiTokenAuditActions),
  ...Object.values(SubscriptionAuditActions),
  ...Object.values(ScimAuditActions),
  ...Object.values(ScimResourceAuditActions),
  ...Object.values(EmailDomainAuditActions),
  ...Object.values(IpRestrictionAuditActions),
  ...Object.values(SsoAuditActions),
  SECURITY_POLICY_UPDATED,
]);

describe('audit actions that raise events', () => {
  it('each is an action some service really records (a renamed action would silently stop raising its event)', () => {
    expect(EVENT_RAISING_ACTIONS.filter((action) => !RECORDED.has(action))).toEqual([]);
  });

  it('every SSO, SCIM connection, IP and email-domain restriction and subscription action raises one', () => {
    const families = [SsoAuditActions, ScimAuditActions, EmailDomainAuditActions, IpRestrictionAuditActions, SubscriptionAuditActions, ApiTokenAuditActions];
    const missing = families.flatMap((family) => Object.values(family)).filter((action) => !EVENT_RAISING_ACTIONS.includes(action));
    expect(missing).toEqual([]);
  });
});
