import type { Migration, MigrationProvider } from 'kysely';
import { initialMigration } from './001_initial';
import { signupBindingMigration } from './002_signup_binding';

export type DialectName = 'sqlite' | 'postgres';

/** In-code provider: migrations are bundled with the server, never globbed from disk. */
export function migrationProvider(dialect: DialectName): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '001_initial': initialMigration(dialect === 'postgres' ? 'bytea' : 'blob'),
        '002_signup_binding': signupBindingMigration,
      };
    },
  };
}
