/** The tables of migration 035 (notification channels: email, SMS, Slack), merged into `Database` (schema.ts). */

/** One event key's switch on the email or SMS channel of a tenant (seed: "Configurations: eventKey, enabled, subscriptions"). */
export interface ChannelEventConfigsTable {
  tenant_id: string;
  /** 'email' | 'sms'. */
  channel: string;
  event_key: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

/** One email or SMS subscription: a list of recipients of one event key. Never stored without recipients. */
export interface ChannelSubscriptionsTable {
  id: string;
  tenant_id: string;
  channel: string;
  event_key: string;
  enabled: number;
  /** JSON array of strings: lower-cased emails, or E.164 phone numbers. */
  recipients: string;
  created_at: number;
  updated_at: number;
}

/** A tenant's Slack workspace: at most one per tenant. The bot token is sealed (AES-256-GCM when GATEHOUSE_KEY_ENCRYPTION_KEY is set). */
export interface SlackWorkspacesTable {
  id: string;
  tenant_id: string;
  /** Null while no workspace is connected (subscriptions may be saved before). */
  team_id: string | null;
  team_name: string | null;
  bot_token: string | null;
  bot_user_id: string | null;
  connected_by: string | null;
  connected_at: number | null;
  created_at: number;
  updated_at: number;
}

/** One Slack subscription (seed: "slackEvents with channelIds"). Never stored with no channel. */
export interface SlackSubscriptionsTable {
  id: string;
  tenant_id: string;
  workspace_id: string;
  event_key: string;
  /** JSON array of Slack channel ids. */
  channel_ids: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

/** A pending Slack OAuth state: only its SHA-256, bound to the tenant and the admin who asked, single use. */
export interface SlackOauthStatesTable {
  state_hash: string;
  tenant_id: string;
  user_id: string;
  expires_at: number;
  created_at: number;
}

export interface ChannelTables {
  channel_event_configs: ChannelEventConfigsTable;
  channel_subscriptions: ChannelSubscriptionsTable;
  slack_workspaces: SlackWorkspacesTable;
  slack_subscriptions: SlackSubscriptionsTable;
  slack_oauth_states: SlackOauthStatesTable;
}
