/** The tables of migration 034 (webhooks), merged into `Database` (schema.ts); see the migration. */

export interface WebhookEndpointsTable {
  id: string;
  tenant_id: string;
  url: string;
  description: string;
  /** JSON array of the subscribed event keys. */
  event_keys: string;
  /** 1 active, 0 inactive (by the admin, or disabled after 5 days of failures). */
  is_active: number;
  /** The `whsec_` secret, sealed (crypto.encrypt) when a key encryption key is configured. */
  secret: string;
  /** The secret before the last rotation, sealed the same way, signing too until previous_secret_expires_at. */
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  /** When the current unbroken run of failed deliveries began; null while deliveries succeed. */
  failing_since: number | null;
  disabled_at: number | null;
  disabled_reason: string | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookAttemptsTable {
  id: string;
  endpoint_id: string;
  tenant_id: string;
  /** The delivery job (null for a test delivery). */
  job_id: string | null;
  /** The event id: the message's `webhook-id`. */
  event_id: string;
  event_key: string;
  attempt: number;
  /** 'pending' | 'success' | 'failed'. */
  status: string;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  /** JSON object of the request's headers. */
  request_headers: string;
  request_body: string;
  /** JSON object of the answer's headers; null when nothing was answered. */
  response_headers: string | null;
  /** The answer's body, its first 64 KB. */
  response_body: string | null;
  created_at: number;
}

export interface WebhookTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_attempts: WebhookAttemptsTable;
}
