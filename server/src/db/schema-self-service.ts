/** The tables of migration 024 (account self-service), merged into `Database` (schema.ts). */

/** A pending change of a user's email address: hashes only, never the token or the code. */
export interface EmailChangesTable {
  id: string;
  user_id: string;
  /** The address asked for, normalized (trimmed, lower case). */
  new_email: string;
  /** SHA-256 of the link token. */
  token_hash: string;
  /** SHA-256 of `<id>:<code>`. */
  code_hash: string;
  /** Wrong codes tried; reserved before each comparison. */
  attempts: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SelfServiceTables {
  email_changes: EmailChangesTable;
}
