/**
 * The Slack channel of a tenant (issue 16; seed 001 sections 3, 5, 7): connecting a workspace with
 * Slack's OAuth v2, listing its channels, and subscriptions `slackEvents` `{ id, eventKey, channelIds,
 * enabled }`.
 *
 * - Scope: the app asks for `chat:write` (post the event messages), `channels:read` and `groups:read`
 *   (list the public and private channels an admin picks from); nothing that reads messages.
 * - State: 256 random bits, stored only as its SHA-256 with the tenant and the admin who asked,
 *   10 minutes, single use. The code exchange compares tenant and admin in constant time and spends
 *   the state in the same statement that checks it is still there, so a replay or a second tab loses.
 * - The bot token is sealed at rest (AES-256-GCM under GATEHOUSE_KEY_ENCRYPTION_KEY, as the other
 *   secrets) and never answered; disconnecting deletes it with the subscriptions and revokes it.
 * - Saving: subscriptions with an id are updated (empty channelIds delete them), others are created
 *   when they name channels (seed 001 section 5). An event key takes at most
 *   MAX_SLACK_SUBSCRIPTIONS_PER_EVENT subscriptions and an account MAX_SLACK_SUBSCRIPTIONS_PER_TENANT,
 *   counted after the save (a save over either is refused whole), since every subscription of a key
 *   is read, and its channels queued, inside the transaction that dispatches each event.
 */
import { ChannelErrorCodes, MAX_SLACK_CHANNELS_PER_EVENT, MAX_SLACK_SUBSCRIPTIONS_PER_EVENT, MAX_SLACK_SUBSCRIPTIONS_PER_TENANT, SLACK_BOT_SCOPES, type SaveSlackConfigRequest, type SlackCodeResponse, type SlackConfig, type SlackScopeResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { decrypt, encrypt, newId, newSecret, safeEqual, sha256 } from '../../crypto';
import type { Db } from '../../db';
import {
  deleteExpiredSlackOauthStates,
  deleteSlackSubscription,
  deleteSlackWorkspace,
  findSlackSubscription,
  findSlackWorkspace,
  insertSlackOauthState,
  insertSlackSubscription,
  insertSlackWorkspace,
  listSlackSubscriptions,
  takeSlackOauthState,
  trimSlackOauthStates,
  updateSlackSubscription,
  updateSlackWorkspace,
  type SlackSubscriptionRow,
  type SlackWorkspaceRow,
} from '../../db/queries/slack';
import { AppError, Errors } from '../../errors';
import { log } from '../../log';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import { assertEventKey } from './channels';
import { SlackApiError, type SlackApi } from './slack-api';

/** How long an OAuth state may wait for Slack's redirect. */
export const SLACK_STATE_TTL_MS = 10 * 60_000;
/** Pending states one admin may hold in an account (two tabs work; a loop of scope calls does not fill the table). */
export const SLACK_PENDING_STATES_PER_ADMIN = 5;

export const SlackAuditActions = {
  connected: 'Slack workspace connected',
  disconnected: 'Slack workspace disconnected',
  updated: 'Slack notifications updated',
} as const;

export interface SlackService {
  get(caller: AdminCaller): Promise<SlackConfig>;
  save(caller: AdminCaller, body: SaveSlackConfigRequest): Promise<SlackConfig>;
  scope(caller: AdminCaller): Promise<SlackScopeResponse>;
  exchangeCode(caller: AdminCaller, body: { code: string; state: string }): Promise<SlackCodeResponse>;
  channels(caller: AdminCaller): Promise<{ id: string; name: string }[]>;
  disconnect(caller: AdminCaller): Promise<void>;
  /** The bot token of a connected workspace (for sending), or null. */
  botToken(db: Db, tenantId: string): Promise<string | null>;
}

/** The channel ids of a stored row (JSON text written only by this module). */
export function channelIdsOf(row: Pick<SlackSubscriptionRow, 'channel_ids'>): string[] {
  try {
    const parsed: unknown = JSON.parse(row.channel_ids);
    return Array.isArray(parsed) ? parsed.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

const stateInvalid = () =>
  new AppError(ChannelErrorCodes.slackStateInvalid, 400, 'state: this Slack connection request is unknown, expired or already used; start connecting again');
const notConfigured = () =>
  new AppError(ChannelErrorCodes.slackNotConfigured, 409, 'Slack is not set up on this server: the operator sets SLACK_CLIENT_ID and SLACK_CLIENT_SECRET (docs/connectivity.md)');
const notConnected = () => new AppError(ChannelErrorCodes.slackNotConnected, 409, 'No Slack workspace is connected to this account; connect one first');
const slackFailed = (err: SlackApiError) => new AppError(ChannelErrorCodes.slackApiFailed, 502, `Slack refused the request (${err.method}: ${err.code})`, { slackError: err.code });

export function createSlackService(deps: { db: Db; clock: Clock; config: Pick<Config, 'slack' | 'keyEncryptionKey'>; api: SlackApi }): SlackService {
  const { db, clock, config, api } = deps;

  const seal = (token: string) => (config.keyEncryptionKey ? encrypt(token, config.keyEncryptionKey) : token);
  const open = (stored: string) => decrypt(stored, config.keyEncryptionKey);

  function toWire(workspace: SlackWorkspaceRow | undefined, subscriptions: SlackSubscriptionRow[]): SlackConfig {
    return {
      id: workspace?.id ?? null,
      connected: Boolean(workspace?.bot_token),
      teamName: workspace?.bot_token ? workspace.team_name : null,
      slackEvents: subscriptions.map((s) => ({ id: s.id, eventKey: s.event_key, channelIds: channelIdsOf(s), enabled: s.enabled === 1 })),
    };
  }

  async function current(trx: Db, tenantId: string): Promise<SlackConfig> {
    return toWire(await findSlackWorkspace(trx, tenantId), await listSlackSubscriptions(trx, tenantId));
  }

  async function ensureWorkspace(trx: Db, tenantId: string, now: number): Promise<SlackWorkspaceRow> {
    const existing = await findSlackWorkspace(trx, tenantId);
    if (existing) return existing;
    const row: SlackWorkspaceRow = {
      id: newId(),
      tenant_id: tenantId,
      team_id: null,
      team_name: null,
      bot_token: null,
      bot_user_id: null,
      connected_by: null,
      connected_at: null,
      created_at: now,
      updated_at: now,
    };
    await insertSlackWorkspace(trx, row);
    return row;
  }

  async function botToken(from: Db, tenantId: string): Promise<string | null> {
    const workspace = await findSlackWorkspace(from, tenantId);
    return workspace?.bot_token ? open(workspace.bot_token) : null;
  }

  async function revokeQuietly(token: string): Promise<void> {
    try {
      await api.revoke(token);
    } catch (err) {
      // The token is deleted here either way; Slack keeps a token it did not hear about until the app is removed.
      log.warn(`Slack auth.revoke failed (${err instanceof SlackApiError ? err.code : 'error'}); the token was deleted from Gatehouse anyway`);
    }
  }

  return {
    async get(caller) {
      return current(db, caller.tenantId);
    },

    async save(caller, body) {
      body.slackEvents.forEach((e, i) => assertEventKey(`slackEvents.${i}.eventKey`, e.eventKey));
      const ids = body.slackEvents.map((e) => e.id).filter((id): id is string => id !== undefined);
      if (new Set(ids).size !== ids.length) throw Errors.validation('slackEvents: the same id is given twice');
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const old = await current(trx, caller.tenantId);
        if (body.id !== undefined && body.id !== old.id) throw Errors.notFound('No Slack configuration with this id in this account');
        const workspace = await ensureWorkspace(trx, caller.tenantId, now);
        for (const [i, event] of body.slackEvents.entries()) {
          const channelIds = [...new Set(event.channelIds)].slice(0, MAX_SLACK_CHANNELS_PER_EVENT);
          if (event.id !== undefined) {
            const existing = await findSlackSubscription(trx, caller.tenantId, event.id);
            if (!existing) throw Errors.notFound(`slackEvents.${i}.id: no such Slack subscription in this account`);
            if (channelIds.length === 0) await deleteSlackSubscription(trx, caller.tenantId, existing.id);
            else await updateSlackSubscription(trx, caller.tenantId, existing.id, { event_key: event.eventKey, channel_ids: JSON.stringify(channelIds), enabled: event.enabled ? 1 : 0, updated_at: now });
          } else if (channelIds.length > 0) {
            await insertSlackSubscription(trx, {
              id: newId(),
              tenant_id: caller.tenantId,
              workspace_id: workspace.id,
              event_key: event.eventKey,
              channel_ids: JSON.stringify(channelIds),
              enabled: event.enabled ? 1 : 0,
              created_at: now,
              updated_at: now,
            });
          }
        }
        const next = await current(trx, caller.tenantId);
        // Over a cap only when the save grew past it, so a save that trims older rows still goes through.
        if (next.slackEvents.length > MAX_SLACK_SUBSCRIPTIONS_PER_TENANT && next.slackEvents.length > old.slackEvents.length) {
          throw Errors.validation(`slackEvents: an account takes at most ${MAX_SLACK_SUBSCRIPTIONS_PER_TENANT} Slack subscriptions (this save would make ${next.slackEvents.length})`);
        }
        const countByKey = (events: SlackConfig['slackEvents']) => events.reduce((m, e) => m.set(e.eventKey, (m.get(e.eventKey) ?? 0) + 1), new Map<string, number>());
        const before = countByKey(old.slackEvents);
        for (const [eventKey, count] of countByKey(next.slackEvents)) {
          if (count > MAX_SLACK_SUBSCRIPTIONS_PER_EVENT && count > (before.get(eventKey) ?? 0)) {
            throw Errors.validation(`slackEvents: ${eventKey} takes at most ${MAX_SLACK_SUBSCRIPTIONS_PER_EVENT} Slack subscriptions (this save would make ${count})`);
          }
        }
        await recordAudit(trx, caller, { action: SlackAuditActions.updated, description: `Slack notifications saved (${next.slackEvents.length} subscriptions)`, json: { old: old.slackEvents, new: next.slackEvents } }, now);
        return next;
      });
    },

    async scope(caller) {
      const { clientId, clientSecret, authorizeUrl, redirectUrl } = config.slack;
      if (!clientId || !clientSecret) throw notConfigured();
      const now = clock.now();
      const state = newSecret();
      await deleteExpiredSlackOauthStates(db, now);
      await trimSlackOauthStates(db, caller.tenantId, caller.userId, SLACK_PENDING_STATES_PER_ADMIN - 1);
      await insertSlackOauthState(db, { state_hash: sha256(state), tenant_id: caller.tenantId, user_id: caller.userId, expires_at: now + SLACK_STATE_TTL_MS, created_at: now });
      const scope = SLACK_BOT_SCOPES.join(',');
      const url = new URL(authorizeUrl);
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('scope', scope);
      url.searchParams.set('state', state);
      if (redirectUrl) url.searchParams.set('redirect_uri', redirectUrl);
      return { clientId, scope, authorizeUrl: url.href, state };
    },

    async exchangeCode(caller, body) {
      if (!config.slack.clientId || !config.slack.clientSecret) throw notConfigured();
      const now = clock.now();
      // Checked and spent before Slack is called: a state buys one exchange, right or wrong.
      const stored = await takeSlackOauthState(db, sha256(body.state), (row) => safeEqual(row.tenant_id, caller.tenantId) && safeEqual(row.user_id, caller.userId) && row.expires_at > now);
      if (!stored) throw stateInvalid();
      let grant;
      try {
        grant = await api.oauthAccess({ code: body.code, redirectUri: config.slack.redirectUrl });
      } catch (err) {
        if (err instanceof SlackApiError) throw slackFailed(err);
        throw err;
      }
      const replaced = await db.transaction().execute(async (trx) => {
        const at = clock.now();
        const before = await findSlackWorkspace(trx, caller.tenantId);
        const workspace = before ?? (await ensureWorkspace(trx, caller.tenantId, at));
        await updateSlackWorkspace(trx, caller.tenantId, {
          team_id: grant.teamId,
          team_name: grant.teamName,
          bot_token: seal(grant.accessToken),
          bot_user_id: grant.botUserId,
          connected_by: caller.userId,
          connected_at: at,
          updated_at: at,
        });
        await recordAudit(
          trx,
          caller,
          {
            action: SlackAuditActions.connected,
            description: `Slack workspace ${grant.teamName ?? grant.teamId ?? '(unnamed)'} connected`,
            json: { old: before?.bot_token ? { teamId: before.team_id, teamName: before.team_name } : null, new: { id: workspace.id, teamId: grant.teamId, teamName: grant.teamName, scope: grant.scope } },
          },
          at,
        );
        return before?.bot_token ? open(before.bot_token) : null;
      });
      if (replaced && replaced !== grant.accessToken) await revokeQuietly(replaced);
      return { connected: true, teamName: grant.teamName };
    },

    async channels(caller) {
      const token = await botToken(db, caller.tenantId);
      if (!token) throw notConnected();
      try {
        return await api.listChannels(token);
      } catch (err) {
        if (err instanceof SlackApiError) throw slackFailed(err);
        throw err;
      }
    },

    async disconnect(caller) {
      const token = await db.transaction().execute(async (trx) => {
        const before = await findSlackWorkspace(trx, caller.tenantId);
        if (!before) return null;
        const old = await current(trx, caller.tenantId);
        await deleteSlackWorkspace(trx, caller.tenantId);
        await recordAudit(trx, caller, { action: SlackAuditActions.disconnected, description: before.team_name ? `Slack workspace ${before.team_name} disconnected` : 'Slack workspace disconnected', json: { old, new: null } }, clock.now());
        return before.bot_token ? open(before.bot_token) : null;
      });
      if (token) await revokeQuietly(token);
    },

    botToken,
  };
}
