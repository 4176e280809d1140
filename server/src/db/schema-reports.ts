/** Tables of reports (migration 037); see the migration. */

export interface TenantReportsTable {
  id: string;
  tenant_id: string;
  /** One of REPORT_TEMPLATE_IDS. */
  template_id: string;
  name: string;
  /** JSON of the filters as saved (validated against the template when saved and when rendered). */
  data_filters: string;
  created_at: number;
  updated_at: number;
}

export interface ReportTriggersTable {
  id: string;
  tenant_id: string;
  report_id: string;
  /** 'weekly' | 'monthly'. */
  schedule: string;
  /** JSON array of email addresses. */
  recipients: string;
  enabled: number;
  /** When its `report` job is due; null while disabled. */
  next_run_at: number | null;
  last_run_at: number | null;
  /** The admin who last saved it; each run checks they still may (migration 037). */
  created_by: string;
  /** Why a run disabled it (its creator lost access), null otherwise. */
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

/** A file of a dev-outbox email (SMTP sends attachments as MIME parts instead). */
export interface OutboxAttachmentsTable {
  id: string;
  outbox_id: string;
  filename: string;
  content_type: string;
  bytes: Buffer;
}

export interface ReportTables {
  tenant_reports: TenantReportsTable;
  report_triggers: ReportTriggersTable;
  outbox_attachments: OutboxAttachmentsTable;
}
