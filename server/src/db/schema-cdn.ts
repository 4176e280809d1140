/** Tables of the CDN rollouts (migration 042); see the migration. */

export interface CdnRolloutsTable {
  /** One of CDN_BUNDLES. */
  bundle: string;
  default_version: string;
  previous_version: string | null;
  canary_version: string | null;
  /** 1–100 while canary_version is set. */
  canary_percent: number | null;
  /** Grows with every change: an update names the revision it read. */
  revision: number;
  updated_at: number;
}

export interface CdnPinsTable {
  bundle: string;
  tenant_id: string;
  version: string;
  created_at: number;
}

export interface CdnTables {
  cdn_rollouts: CdnRolloutsTable;
  cdn_pins: CdnPinsTable;
}
