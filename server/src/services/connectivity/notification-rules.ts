/**
 * Which events become portal notifications (issue 16 "Notifications: security events, webhook
 * endpoint disabled, subscription issues"). The consumer runs in the worker's dispatch transaction,
 * so a notification exists exactly when its event was dispatched. Webhook endpoints disabled after
 * 5 days of failures are notified by the webhooks part itself (notifyTenantAdmins), not from here.
 */
import type { Db } from '../../db';
import { countTenantEvents, hasRecentNotification } from '../../db/queries/notifications';
import type { RaisedEvent } from './events';
import { notifyTenantAdmins, type NotificationInput } from './notifications';
import type { EventConsumer } from './worker';

/** A burst of failed sign-ins: this many in the tenant within the window make one notification. */
export const SIGN_IN_FAILURE_BURST = 10;
export const SIGN_IN_FAILURE_WINDOW_MS = 10 * 60_000;
const BURST_DEDUPE_KEY = 'user.sign_in_failed:burst';

/** Subscription statuses that need the tenant's attention (Stripe's names). */
export const SUBSCRIPTION_PROBLEM_STATUSES: ReadonlySet<string> = new Set(['past_due', 'unpaid', 'incomplete', 'incomplete_expired', 'canceled']);

type Notice = Omit<NotificationInput, 'tenantId'>;

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, 200) : fallback;
}

function by(event: RaisedEvent): string {
  return event.actor?.email ? ` by ${event.actor.email}` : '';
}

/** The notification an event makes by itself, or null (bursts are counted apart). */
export function noticeFor(event: RaisedEvent): Notice | null {
  const d = event.data;
  switch (event.key) {
    case 'user.locked': {
      const who = text(d.email, text(d.userId, 'A user'));
      const why = d.reason === 'failed_sign_ins' ? 'after too many failed sign-ins' : `by an admin${by(event)}`;
      return { category: 'security', severity: 'warning', title: 'User locked', body: `${who} was locked ${why}.` };
    }
    case 'security_policy.updated': {
      const fields = Array.isArray(d.changedFields) && d.changedFields.length > 0 ? ` (${d.changedFields.map(String).join(', ').slice(0, 300)})` : '';
      return { category: 'security', severity: 'info', title: 'Security policy changed', body: `The ${text(d.policy, 'security')} policy was changed${by(event)}${fields}.` };
    }
    case 'sso.configuration_changed': {
      const change = text(d.change, 'changed');
      return { category: 'security', severity: change === 'deleted' ? 'warning' : 'info', title: 'SSO configuration changed', body: `An SSO configuration was ${change}${by(event)}.` };
    }
    case 'scim.connection_changed': {
      const change = d.change === 'token_rotated' ? 'had its token rotated' : text(d.change, 'changed');
      return { category: 'security', severity: d.change === 'deleted' ? 'warning' : 'info', title: 'SCIM connection changed', body: `A SCIM provisioning connection ${change === 'created' || change === 'deleted' ? `was ${change}` : change}${by(event)}.` };
    }
    case 'api_token.created': {
      const kind = d.type === 'user' ? 'A personal API token' : 'A tenant API token';
      const description = typeof d.description === 'string' && d.description ? ` ("${d.description.slice(0, 100)}")` : '';
      return { category: 'security', severity: 'info', title: 'API token created', body: `${kind}${description} was created${by(event)}.` };
    }
    case 'subscription.updated': {
      const status = typeof d.status === 'string' ? d.status : '';
      if (!SUBSCRIPTION_PROBLEM_STATUSES.has(status) || d.previousStatus === status) return null;
      const severity = status === 'past_due' || status === 'unpaid' ? 'critical' : 'warning';
      return { category: 'billing', severity, title: 'Subscription needs attention', body: `The subscription is now ${status.replace(/_/g, ' ')}${typeof d.planId === 'string' ? ` (plan ${d.planId.slice(0, 100)})` : ''}.` };
    }
    default:
      return null;
  }
}

/** One notification per window when failed sign-ins in the tenant reach the burst within it. */
async function signInFailureBurst(trx: Db, event: RaisedEvent, now: number): Promise<void> {
  const count = await countTenantEvents(trx, { tenantId: event.tenantId, eventKey: 'user.sign_in_failed', from: event.occurredAt - SIGN_IN_FAILURE_WINDOW_MS, to: event.occurredAt });
  if (count < SIGN_IN_FAILURE_BURST) return;
  if (await hasRecentNotification(trx, event.tenantId, BURST_DEDUPE_KEY, now - SIGN_IN_FAILURE_WINDOW_MS)) return;
  await notifyTenantAdmins(
    trx,
    {
      tenantId: event.tenantId,
      category: 'security',
      severity: 'critical',
      title: 'Many failed sign-ins',
      body: `${count} sign-ins failed in the last ${SIGN_IN_FAILURE_WINDOW_MS / 60_000} minutes.`,
      dedupeKey: BURST_DEDUPE_KEY,
    },
    now,
  );
}

/** The worker's consumer that writes the notifications of the rules above. */
export function notificationConsumer(): EventConsumer {
  return {
    name: 'notifications',
    async fanOut(trx, event, now) {
      if (event.key === 'user.sign_in_failed') return signInFailureBurst(trx, event, now);
      const notice = noticeFor(event);
      if (notice) await notifyTenantAdmins(trx, { tenantId: event.tenantId, ...notice }, now);
    },
  };
}
