/** Tables of applications (migration 030); see the migration. */

export interface ApplicationsTable {
  id: string;
  name: string;
  url: string;
  /** An https address of the logo; null when uploaded (logo_id) or none. */
  logo_url: string | null;
  /** The uploaded logo (application_logos.id), or null. */
  logo_id: string | null;
  /** 'FREE_ACCESS' | 'MANAGED_ACCESS'. */
  access_type: string;
  /** The linked hosted-login client, or null. */
  client_id: string | null;
  created_at: number;
  updated_at: number;
}

/** An application's uploaded logo: validated png, jpeg, gif or webp bytes (never SVG). */
export interface ApplicationLogosTable {
  id: string;
  application_id: string;
  mime: string;
  bytes: Buffer;
  created_at: number;
}

export interface ApplicationUsersTable {
  app_id: string;
  tenant_id: string;
  user_id: string;
  created_at: number;
}

export interface ApplicationTables {
  applications: ApplicationsTable;
  application_logos: ApplicationLogosTable;
  application_users: ApplicationUsersTable;
}
