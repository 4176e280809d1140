import type { Kysely, Migration } from 'kysely';

/**
 * SMS and WebAuthn as second factors, and phone-number changes (seed 000 sections 2.2, 3, 7.2, 7.3).
 * - `mfa_devices` gets the columns of the new device kinds: `phone_number` (E.164) of an 'sms'
 *   device; `credential_id`, `public_key` (COSE, base64url), `counter`, `transports` (JSON) and
 *   `device_type` (internal, usb-key or android) of a 'webauthn' device; `name` for the list.
 *   A security key is a second factor only: it lives here, never in `webauthn_credentials`
 *   (passkeys), so it can never sign in on its own.
 * - `mfa_sms_codes`: one texted code; `code_hash` is the SHA-256 of `<id>:<code>`, `failed_attempts`
 *   is reserved atomically before each comparison. `mfa_token_hash` binds a sign-in code to its
 *   mfaToken, `device_id` to the device (or pending enrolment) it went to.
 * - `webauthn_challenges` gets `mfa_token_hash` (a second-factor ceremony bound to a sign-in's
 *   mfaToken) and `attachment` (the new-device session's deviceType: platform or cross-platform).
 * - `phone_verifications`: a reset-phone request (a code emailed to the account) or a new number
 *   waiting for its texted code. `id_hash` is the SHA-256 of the id the browser holds, `code_hash`
 *   the SHA-256 of `<id>:<code>`; `attempts` are reserved before each comparison.
 * SQLite adds one column per ALTER TABLE; only portable types, so both dialects share it.
 */
export const mfaPhoneWebauthnMigration: Migration = {
  async up(db: Kysely<any>) {
    for (const [column, type] of [
      ['phone_number', 'text'],
      ['credential_id', 'text'],
      ['public_key', 'text'],
      ['counter', 'bigint'],
      ['transports', 'text'],
      ['device_type', 'text'],
      ['name', 'text'],
    ] as const) {
      await db.schema.alterTable('mfa_devices').addColumn(column, type).execute();
    }
    // NULLs (every non-WebAuthn device) never collide in a unique index, on either dialect.
    await db.schema.createIndex('mfa_devices_credential_id').on('mfa_devices').column('credential_id').unique().execute();

    await db.schema
      .createTable('mfa_sms_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('mfa_token_hash', 'text')
      .addColumn('device_id', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('mfa_sms_codes_user').on('mfa_sms_codes').columns(['user_id', 'purpose']).execute();

    await db.schema.alterTable('webauthn_challenges').addColumn('mfa_token_hash', 'text').execute();
    await db.schema.alterTable('webauthn_challenges').addColumn('attachment', 'text').execute();

    await db.schema
      .createTable('phone_verifications')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('phone_number', 'text')
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('phone_verifications_user').on('phone_verifications').columns(['user_id', 'purpose']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('phone_verifications').execute();
    await db.schema.alterTable('webauthn_challenges').dropColumn('attachment').execute();
    await db.schema.alterTable('webauthn_challenges').dropColumn('mfa_token_hash').execute();
    await db.schema.dropTable('mfa_sms_codes').execute();
    await db.schema.dropIndex('mfa_devices_credential_id').execute();
    for (const column of ['name', 'device_type', 'transports', 'counter', 'public_key', 'credential_id', 'phone_number']) {
      await db.schema.alterTable('mfa_devices').dropColumn(column).execute();
    }
  },
};
