/**
 * Email and SMS subscriptions of a tenant (issue 16; seed 001 sections 3 and 5): per event key of the
 * catalogue, a switch and subscriptions `{ id, enabled, recipients }`.
 *
 * Rules (seed 001 section 5): a subscription is created only when it has recipients; one whose
 * recipients become empty is deleted; saving updates the subscriptions whose id is given and creates
 * the others. Recipients are normalised (emails lower-cased, phone numbers to E.164) and de-duplicated.
 * Every change is audited in its transaction, with the event key's configuration before and after.
 */
import { isEventKey, MAX_SUBSCRIPTIONS_PER_EVENT, type ChannelConfigList, type ChannelEventConfig } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import {
  deleteChannelSubscription,
  findChannelEventConfig,
  findChannelSubscription,
  insertChannelEventConfig,
  insertChannelSubscription,
  listChannelEventConfigs,
  listChannelSubscriptions,
  updateChannelEventConfig,
  updateChannelSubscription,
  type ChannelEventConfigRow,
  type ChannelSubscriptionRow,
  type StoredChannel,
} from '../../db/queries/channel-subscriptions';
import { Errors } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import { INVALID_PHONE_MESSAGE, normalizePhoneNumber } from '../platform/phone';

export type SubscriptionChannel = StoredChannel;

/** Audit actions of the email and SMS channels. */
export const ChannelAuditActions = {
  email: 'Email notifications updated',
  sms: 'SMS notifications updated',
} as const;

const CHANNEL_NAME: Record<SubscriptionChannel, string> = { email: 'Email', sms: 'SMS' };

export interface SubscriptionInput {
  id?: string | undefined;
  enabled: boolean;
  recipients: string[];
}

export interface ChannelSubscriptionService {
  /** Every event key with a configuration on the channel, with its subscriptions (oldest first). */
  list(caller: AdminCaller, channel: SubscriptionChannel): Promise<ChannelConfigList>;
  /** Saves an event key: its switch, and each subscription given (update by id, else create). */
  save(caller: AdminCaller, channel: SubscriptionChannel, body: { eventKey: string; enabled: boolean; subscriptions: SubscriptionInput[] }): Promise<ChannelEventConfig>;
  /** Switches an event key on or off. */
  setEnabled(caller: AdminCaller, channel: SubscriptionChannel, eventKey: string, enabled: boolean): Promise<ChannelEventConfig>;
  /** Replaces one subscription; empty recipients delete it. */
  putSubscription(caller: AdminCaller, channel: SubscriptionChannel, eventKey: string, id: string, body: { enabled: boolean; recipients: string[] }): Promise<ChannelEventConfig>;
  deleteSubscription(caller: AdminCaller, channel: SubscriptionChannel, eventKey: string, id: string): Promise<void>;
}

/** The recipients of a stored row (JSON text written only by this module). */
export function recipientsOf(row: Pick<ChannelSubscriptionRow, 'recipients'>): string[] {
  try {
    const parsed: unknown = JSON.parse(row.recipients);
    return Array.isArray(parsed) ? parsed.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

function toWire(eventKey: string, config: ChannelEventConfigRow | undefined, subscriptions: ChannelSubscriptionRow[]): ChannelEventConfig {
  return {
    eventKey,
    enabled: config ? config.enabled === 1 : true,
    subscriptions: subscriptions.map((s) => ({ id: s.id, enabled: s.enabled === 1, recipients: recipientsOf(s) })),
  };
}

/** An event key of the catalogue, or a 400 naming it. */
export function assertEventKey(field: string, eventKey: string): void {
  if (!isEventKey(eventKey)) throw Errors.validation(`${field}: "${eventKey.slice(0, 64)}" is not an event key of the catalogue (GET /connectivity/resources/events/v1 lists them)`);
}

/** Normalised, de-duplicated recipients, or a 400 naming the bad one. */
export function normaliseRecipients(channel: SubscriptionChannel, field: string, recipients: string[]): string[] {
  const out: string[] = [];
  recipients.forEach((raw, i) => {
    let value: string | null;
    if (channel === 'sms') {
      value = normalizePhoneNumber(raw);
      if (!value) throw Errors.validation(`${field}.${i}: ${INVALID_PHONE_MESSAGE}`);
    } else {
      // The wire schema checked the address; lower-case again for callers that skip it.
      value = raw.trim().toLowerCase();
    }
    if (!out.includes(value)) out.push(value);
  });
  return out;
}

export function createChannelSubscriptionService(deps: { db: Db; clock: Clock }): ChannelSubscriptionService {
  const { db, clock } = deps;

  const notFound = (eventKey: string) => Errors.notFound(`No such subscription of ${eventKey} on this channel in this account`);

  async function current(trx: Db, tenantId: string, channel: SubscriptionChannel, eventKey: string): Promise<ChannelEventConfig> {
    return toWire(eventKey, await findChannelEventConfig(trx, tenantId, channel, eventKey), await listChannelSubscriptions(trx, tenantId, channel, eventKey));
  }

  async function upsertSwitch(trx: Db, tenantId: string, channel: SubscriptionChannel, eventKey: string, enabled: boolean, now: number): Promise<void> {
    const existing = await findChannelEventConfig(trx, tenantId, channel, eventKey);
    if (existing) await updateChannelEventConfig(trx, tenantId, channel, eventKey, { enabled: enabled ? 1 : 0, updated_at: now });
    else await insertChannelEventConfig(trx, { tenant_id: tenantId, channel, event_key: eventKey, enabled: enabled ? 1 : 0, created_at: now, updated_at: now });
  }

  async function audit(trx: Db, caller: AdminCaller, channel: SubscriptionChannel, eventKey: string, what: string, old: ChannelEventConfig, now: number) {
    const next = await current(trx, caller.tenantId, channel, eventKey);
    await recordAudit(trx, caller, { action: ChannelAuditActions[channel], description: `${CHANNEL_NAME[channel]} notifications of ${eventKey}: ${what}`, json: { channel, eventKey, old, new: next } }, now);
    return next;
  }

  return {
    async list(caller, channel) {
      const [configs, subscriptions] = await Promise.all([listChannelEventConfigs(db, caller.tenantId, channel), listChannelSubscriptions(db, caller.tenantId, channel)]);
      const keys = [...new Set([...configs.map((c) => c.event_key), ...subscriptions.map((s) => s.event_key)])].sort();
      return keys.map((key) => toWire(key, configs.find((c) => c.event_key === key), subscriptions.filter((s) => s.event_key === key)));
    },

    async save(caller, channel, body) {
      assertEventKey('eventKey', body.eventKey);
      const ids = body.subscriptions.map((s) => s.id).filter((id): id is string => id !== undefined);
      if (new Set(ids).size !== ids.length) throw Errors.validation('subscriptions: the same id is given twice');
      const inputs = body.subscriptions.map((s, i) => ({ ...s, recipients: normaliseRecipients(channel, `subscriptions.${i}.recipients`, s.recipients) }));
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const old = await current(trx, caller.tenantId, channel, body.eventKey);
        await upsertSwitch(trx, caller.tenantId, channel, body.eventKey, body.enabled, now);
        let created = 0;
        let updated = 0;
        let deleted = 0;
        for (const input of inputs) {
          if (input.id !== undefined) {
            const existing = await findChannelSubscription(trx, caller.tenantId, channel, body.eventKey, input.id);
            if (!existing) throw notFound(body.eventKey);
            if (input.recipients.length === 0) {
              await deleteChannelSubscription(trx, caller.tenantId, existing.id);
              deleted++;
            } else {
              await updateChannelSubscription(trx, caller.tenantId, existing.id, { enabled: input.enabled ? 1 : 0, recipients: JSON.stringify(input.recipients), updated_at: now });
              updated++;
            }
          } else if (input.recipients.length > 0) {
            await insertChannelSubscription(trx, {
              id: newId(),
              tenant_id: caller.tenantId,
              channel,
              event_key: body.eventKey,
              enabled: input.enabled ? 1 : 0,
              recipients: JSON.stringify(input.recipients),
              created_at: now,
              updated_at: now,
            });
            created++;
          }
        }
        const count = (await listChannelSubscriptions(trx, caller.tenantId, channel, body.eventKey)).length;
        if (count > MAX_SUBSCRIPTIONS_PER_EVENT) throw Errors.validation(`subscriptions: an event takes at most ${MAX_SUBSCRIPTIONS_PER_EVENT} subscriptions (this save would make ${count})`);
        return audit(trx, caller, channel, body.eventKey, `saved (${body.enabled ? 'on' : 'off'}; ${created} created, ${updated} updated, ${deleted} deleted)`, old, now);
      });
    },

    async setEnabled(caller, channel, eventKey, enabled) {
      assertEventKey('eventKey', eventKey);
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const old = await current(trx, caller.tenantId, channel, eventKey);
        await upsertSwitch(trx, caller.tenantId, channel, eventKey, enabled, now);
        return audit(trx, caller, channel, eventKey, enabled ? 'turned on' : 'turned off', old, now);
      });
    },

    async putSubscription(caller, channel, eventKey, id, body) {
      assertEventKey('eventKey', eventKey);
      const recipients = normaliseRecipients(channel, 'recipients', body.recipients);
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const existing = await findChannelSubscription(trx, caller.tenantId, channel, eventKey, id);
        if (!existing) throw notFound(eventKey);
        const old = await current(trx, caller.tenantId, channel, eventKey);
        if (recipients.length === 0) await deleteChannelSubscription(trx, caller.tenantId, id);
        else await updateChannelSubscription(trx, caller.tenantId, id, { enabled: body.enabled ? 1 : 0, recipients: JSON.stringify(recipients), updated_at: now });
        return audit(trx, caller, channel, eventKey, recipients.length === 0 ? `subscription ${id} deleted (no recipients left)` : `subscription ${id} updated`, old, now);
      });
    },

    async deleteSubscription(caller, channel, eventKey, id) {
      assertEventKey('eventKey', eventKey);
      await db.transaction().execute(async (trx) => {
        const now = clock.now();
        const existing = await findChannelSubscription(trx, caller.tenantId, channel, eventKey, id);
        if (!existing) throw notFound(eventKey);
        const old = await current(trx, caller.tenantId, channel, eventKey);
        await deleteChannelSubscription(trx, caller.tenantId, id);
        await audit(trx, caller, channel, eventKey, `subscription ${id} deleted`, old, now);
      });
    },
  };
}
