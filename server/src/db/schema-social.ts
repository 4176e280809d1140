/** Tables of social login (migration 014); see the migration for what each one holds. */

export interface SocialLoginStatesTable {
  id: string;
  provider: string;
  state_hash: string;
  binding_hash: string;
  sealed: string;
  redirect_uri: string;
  return_to: string;
  provider_user: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SocialIdentitiesTable {
  id: string;
  user_id: string;
  provider: string;
  subject: string;
  email: string | null;
  created_at: number;
  last_login_at: number | null;
}

/** The social login tables, merged into `Database` (schema.ts). */
export interface SocialTables {
  social_login_states: SocialLoginStatesTable;
  social_identities: SocialIdentitiesTable;
}
