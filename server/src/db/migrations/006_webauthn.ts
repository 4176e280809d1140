import type { Kysely, Migration } from 'kysely';

/**
 * Passkeys (WebAuthn). `webauthn_credentials` holds each registered authenticator's public key
 * (COSE, base64url text so one migration serves both dialects) and its signature counter.
 * `webauthn_challenges` holds outstanding ceremony challenges by SHA-256 only: single-use
 * (`used_at`), short-lived (`expires_at`), and bound to the user (registration) or, when the
 * sign-in named an identifier, to that user.
 */
export const webauthnMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('webauthn_credentials')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('credential_id', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull())
      .addColumn('transports', 'text', (c) => c.notNull())
      .addColumn('device_type', 'text', (c) => c.notNull())
      .addColumn('backed_up', 'integer', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema.createIndex('webauthn_credentials_user_id').on('webauthn_credentials').column('user_id').execute();

    await db.schema
      .createTable('webauthn_challenges')
      .addColumn('challenge_hash', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('session_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    // Cleanup deletes by age.
    await db.schema.createIndex('webauthn_challenges_expires_at').on('webauthn_challenges').column('expires_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('webauthn_challenges').execute();
    await db.schema.dropTable('webauthn_credentials').execute();
  },
};
