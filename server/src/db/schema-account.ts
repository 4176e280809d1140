/** The tables of migration 020 (account settings), merged into `Database` (schema.ts). */
import type { ColumnType } from 'kysely';

/** One row per tenant that saved its settings; company name and application URL live on `tenants`. */
export interface TenantAccountSettingsTable {
  tenant_id: string;
  website: string | null;
  address: string | null;
  /** IANA time zone. */
  timezone: string;
  date_format: string;
  time_format: string;
  /** ISO 4217 code. */
  currency: string;
  logo_id: string | null;
  has_custom_login: ColumnType<number, number | undefined, number>;
  login_title: string | null;
  /** #rrggbb. */
  login_color: string | null;
  updated_at: number;
}

/** A tenant's logo: validated png, jpeg, gif or webp bytes (never SVG). */
export interface TenantLogosTable {
  id: string;
  tenant_id: string;
  mime: string;
  bytes: Buffer;
  created_at: number;
}

export interface AccountTables {
  tenant_account_settings: TenantAccountSettingsTable;
  tenant_logos: TenantLogosTable;
}
