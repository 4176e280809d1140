import type { Migration, MigrationProvider } from 'kysely';
import { initialMigration } from './001_initial';
import { signupBindingMigration } from './002_signup_binding';
import { rateLimitsMigration } from './003_rate_limits';
import { mfaMigration } from './004_mfa';
import { smsOutboxMigration } from './005_sms_outbox';
import { webauthnMigration } from './006_webauthn';
import { passwordlessMigration } from './008_passwordless';
import { passwordPoliciesMigration } from './007_password_policies';

export type DialectName = 'sqlite' | 'postgres';

/** In-code provider: migrations are bundled with the server, never globbed from disk. */
export function migrationProvider(dialect: DialectName): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '001_initial': initialMigration(dialect === 'postgres' ? 'bytea' : 'blob'),
        '002_signup_binding': signupBindingMigration,
        '003_rate_limits': rateLimitsMigration,
        '004_mfa': mfaMigration,
        '005_sms_outbox': smsOutboxMigration,
        '006_webauthn': webauthnMigration,
        '008_passwordless': passwordlessMigration,
        '007_password_policies': passwordPoliciesMigration,
      };
    },
  };
}
