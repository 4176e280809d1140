import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from './index';

/**
 * Tenant administration of people (seed 001 sections 3, 4, 5, 7): users of a tenant, roles, groups,
 * invite links, and the audit log every admin change writes.
 *
 * - `user_tenants` gets the membership's own state, so an admin acts on the user IN THEIR TENANT only
 *   (the same account may belong to other tenants): `disabled_at` (enable/disable toggle),
 *   `admin_locked_at` (lock/unlock), `expires_at` (temporary users) and `managed_by` (frontegg or
 *   scim2). A membership with any of them set (or past `expires_at`) no longer counts as membership.
 * - `user_tenants` also becomes the read model of the users table of the admin portal: a copy of the
 *   user's sort and filter fields (lower-cased name, email, created at, verified, locked, breached
 *   password, MFA enrolled, provider, last activity), kept in step by triggers on `users`,
 *   `mfa_devices`, `social_identities` and `sso_identities`, whoever writes them. With the copies,
 *   every sort field and filter preset of a tenant is one index range `(tenant_id, key, user_id)`:
 *   a page of 20 out of 100,000 members never sorts or joins more than the page.
 *   `sort_name` and `email` use byte order (PostgreSQL `COLLATE "C"`, SQLite's default), so a name or
 *   email prefix search is an exact index range on both dialects and both sort alike. SQLite's
 *   lower() folds ASCII only; PostgreSQL's folds all letters.
 * - `groups`, `group_roles`, `group_users`: a tenant's groups (name, description, color; `managed_by`
 *   set when an identity provider owns the group, which makes it read-only here).
 * - `permission_categories`: the categories the permission catalogue's `category_id` names.
 * - `invite_links`: at most one per tenant; `token_hash` (SHA-256) finds it, `token_sealed` (AES-256-GCM
 *   with GATEHOUSE_KEY_ENCRYPTION_KEY when set) lets the admin see the link again.
 * - `audits`: who did what, from where, in which tenant; indexed for the audits list of a tenant with
 *   a million rows (newest first, by severity, by action, by user).
 */
export function adminPeopleMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      const byteOrder = (c: any) => (dialect === 'postgres' ? c.modifyEnd(sql`collate "C"`) : c);
      await db.schema.alterTable('user_tenants').addColumn('disabled_at', 'bigint').execute();
      await db.schema.alterTable('user_tenants').addColumn('admin_locked_at', 'bigint').execute();
      await db.schema.alterTable('user_tenants').addColumn('expires_at', 'bigint').execute();
      await db.schema.alterTable('user_tenants').addColumn('managed_by', 'text', (c) => c.notNull().defaultTo('frontegg')).execute();
      await db.schema.alterTable('user_tenants').addColumn('sort_name', 'text', (c) => byteOrder(c.notNull().defaultTo(''))).execute();
      await db.schema.alterTable('user_tenants').addColumn('email', 'text', byteOrder).execute();
      await db.schema.alterTable('user_tenants').addColumn('user_created_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('user_tenants').addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('user_tenants').addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('user_tenants').addColumn('breached', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('user_tenants').addColumn('mfa_enrolled', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('user_tenants').addColumn('provider', 'text', (c) => c.notNull().defaultTo('local')).execute();
      await db.schema.alterTable('user_tenants').addColumn('active_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();

      // Fill the copies of existing memberships, then keep them in step.
      await sql
        .raw(`update user_tenants set (${USER_COPY_COLUMNS}) = (${userCopy('user_tenants.user_id', 'user_tenants.admin_locked_at')}),
          mfa_enrolled = ${mfaEnrolled('user_tenants.user_id')}, provider = ${provider('user_tenants.user_id', 'user_tenants.tenant_id')}`)
        .execute(db);
      for (const statement of dialect === 'postgres' ? postgresTriggers() : sqliteTriggers()) await sql.raw(statement).execute(db);

      const memberIndex = (name: string, columns: string[]) => db.schema.createIndex(name).on('user_tenants').columns(['tenant_id', ...columns]).execute();
      await memberIndex('user_tenants_by_id', ['user_id']);
      await memberIndex('user_tenants_by_name', ['sort_name', 'user_id']);
      await memberIndex('user_tenants_by_email', ['email', 'user_id']);
      await memberIndex('user_tenants_by_created', ['user_created_at', 'user_id']);
      await memberIndex('user_tenants_by_verified', ['verified', 'sort_name', 'user_id']);
      await memberIndex('user_tenants_by_locked', ['locked', 'sort_name', 'user_id']);
      await memberIndex('user_tenants_by_provider', ['provider', 'sort_name', 'user_id']);
      await memberIndex('user_tenants_by_mfa', ['mfa_enrolled', 'sort_name', 'user_id']);
      await memberIndex('user_tenants_by_breached', ['breached', 'sort_name', 'user_id']);
      await memberIndex('user_tenants_by_activity', ['active_at', 'user_id']);

      await db.schema
        .createTable('groups')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('color', 'text')
        .addColumn('metadata', 'text')
        .addColumn('managed_by', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('groups_tenant_name_uq', ['tenant_id', 'name'])
        .execute();
      await db.schema
        .createTable('group_roles')
        .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
        .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('group_roles_pk', ['group_id', 'role_id'])
        .execute();
      await db.schema.createIndex('group_roles_role').on('group_roles').column('role_id').execute();
      await db.schema
        .createTable('group_users')
        .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('group_users_pk', ['group_id', 'user_id'])
        .execute();
      await db.schema.createIndex('group_users_user').on('group_users').column('user_id').execute();

      await db.schema
        .createTable('permission_categories')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('invite_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull().unique().references('tenants.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('token_sealed', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('audits')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text')
        .addColumn('email', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('severity', 'text', (c) => c.notNull())
        .addColumn('json', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      const auditIndex = (name: string, columns: string[]) => db.schema.createIndex(name).on('audits').columns(['tenant_id', ...columns, 'created_at', 'id']).execute();
      await auditIndex('audits_by_time', []);
      await auditIndex('audits_by_severity', ['severity']);
      await auditIndex('audits_by_action', ['action']);
      await auditIndex('audits_by_user', ['user_id']);
    },

    async down(db: Kysely<any>) {
      for (const statement of dialect === 'postgres' ? DROP_POSTGRES_TRIGGERS : DROP_SQLITE_TRIGGERS) await sql.raw(statement).execute(db);
      for (const table of ['audits', 'invite_links', 'permission_categories', 'group_users', 'group_roles', 'groups']) await db.schema.dropTable(table).execute();
      for (const index of ['by_id', 'by_name', 'by_email', 'by_created', 'by_verified', 'by_locked', 'by_provider', 'by_mfa', 'by_breached', 'by_activity']) {
        await db.schema.dropIndex(`user_tenants_${index}`).execute();
      }
      for (const column of ['disabled_at', 'admin_locked_at', 'expires_at', 'managed_by', 'sort_name', 'email', 'user_created_at', 'verified', 'locked', 'breached', 'mfa_enrolled', 'provider', 'active_at']) {
        await db.schema.alterTable('user_tenants').dropColumn(column).execute();
      }
    },
  };
}

// ---- the copies, as SQL both dialects run ---------------------------------------------------

const COPY = ['sort_name', 'email', 'user_created_at', 'verified', 'locked', 'breached', 'active_at'];
const USER_COPY_COLUMNS = COPY.join(', ');

/** The users-row part of the copy for user `u` (a subquery); `adminLocked` is the membership's own lock. */
function userCopy(u: string, adminLocked: string): string {
  return `select lower(x.name) as sort_name, x.email as email, x.created_at as user_created_at, x.verified as verified,
      case when x.locked_at is not null or ${adminLocked} is not null then 1 else 0 end as locked,
      x.is_breached_password as breached, coalesce(x.last_login, x.created_at) as active_at
    from users x where x.id = ${u}`;
}

/** 1 when the user has an active second factor (what `mfaEnrolled` means everywhere). */
function mfaEnrolled(u: string): string {
  return `(case when exists (select 1 from mfa_devices d where d.user_id = ${u} and d.status = 'active') then 1 else 0 end)`;
}

/** How the user signs in to tenant `t`: the tenant's SSO (saml, oidc), else a social provider, else local. */
function provider(u: string, t: string): string {
  return `coalesce(
    (select c.type from sso_identities i join sso_configurations c on c.id = i.config_id where i.user_id = ${u} and c.tenant_id = ${t} order by i.created_at limit 1),
    (select s.provider from social_identities s where s.user_id = ${u} order by s.created_at limit 1),
    'local')`;
}

/** Sets every copy of user `n` on their memberships (exported for migration 044, which keeps it as it is). */
export const userUpdate = (n: string) =>
  `update user_tenants set sort_name = lower(${n}.name), email = ${n}.email, user_created_at = ${n}.created_at, verified = ${n}.verified,
     locked = case when ${n}.locked_at is not null or admin_locked_at is not null then 1 else 0 end,
     breached = ${n}.is_breached_password, active_at = coalesce(${n}.last_login, ${n}.created_at)
   where user_id = ${n}.id`;
const mfaUpdate = (u: string) => `update user_tenants set mfa_enrolled = ${mfaEnrolled(u)} where user_id = ${u}`;
const providerUpdate = (u: string) => `update user_tenants set provider = ${provider('user_tenants.user_id', 'user_tenants.tenant_id')} where user_id = ${u}`;
const membershipFill = (n: string) =>
  `update user_tenants set (${USER_COPY_COLUMNS}) = (${userCopy(`${n}.user_id`, `${n}.admin_locked_at`)}),
     mfa_enrolled = ${mfaEnrolled(`${n}.user_id`)}, provider = ${provider(`${n}.user_id`, `${n}.tenant_id`)}
   where user_id = ${n}.user_id and tenant_id = ${n}.tenant_id`;

/** The users columns migration 016's gh_users_copy follows (044 moves last_login to a trigger of its own). */
export const USER_COLUMNS = 'name, email, created_at, verified, locked_at, is_breached_password, last_login';

function sqliteTriggers(): string[] {
  return [
    `create trigger gh_user_tenants_fill after insert on user_tenants begin ${membershipFill('new')}; end`,
    `create trigger gh_users_copy after update of ${USER_COLUMNS} on users begin ${userUpdate('new')}; end`,
    `create trigger gh_mfa_insert after insert on mfa_devices begin ${mfaUpdate('new.user_id')}; end`,
    `create trigger gh_mfa_update after update of status, user_id on mfa_devices begin ${mfaUpdate('new.user_id')}; ${mfaUpdate('old.user_id')}; end`,
    `create trigger gh_mfa_delete after delete on mfa_devices begin ${mfaUpdate('old.user_id')}; end`,
    `create trigger gh_social_insert after insert on social_identities begin ${providerUpdate('new.user_id')}; end`,
    `create trigger gh_social_delete after delete on social_identities begin ${providerUpdate('old.user_id')}; end`,
    `create trigger gh_sso_insert after insert on sso_identities begin ${providerUpdate('new.user_id')}; end`,
    `create trigger gh_sso_delete after delete on sso_identities begin ${providerUpdate('old.user_id')}; end`,
  ];
}

const DROP_SQLITE_TRIGGERS = ['gh_user_tenants_fill', 'gh_users_copy', 'gh_mfa_insert', 'gh_mfa_update', 'gh_mfa_delete', 'gh_social_insert', 'gh_social_delete', 'gh_sso_insert', 'gh_sso_delete'].map(
  (name) => `drop trigger if exists ${name}`,
);

/** PostgreSQL: one plpgsql function per trigger; the membership copy is filled before the row is written. */
function postgresTriggers(): string[] {
  const fn = (name: string, body: string) => `create or replace function ${name}() returns trigger language plpgsql as $fn$ begin ${body} end $fn$`;
  return [
    fn(
      'gh_user_tenants_fill',
      `select ${COPY.map((c) => `q.${c}`).join(', ')} into ${COPY.map((c) => `new.${c}`).join(', ')} from (${userCopy('new.user_id', 'new.admin_locked_at')}) q;
       new.mfa_enrolled := ${mfaEnrolled('new.user_id')};
       new.provider := ${provider('new.user_id', 'new.tenant_id')};
       return new;`,
    ),
    `create trigger gh_user_tenants_fill before insert on user_tenants for each row execute function gh_user_tenants_fill()`,
    fn('gh_users_copy', `${userUpdate('new')}; return null;`),
    `create trigger gh_users_copy after update of ${USER_COLUMNS} on users for each row execute function gh_users_copy()`,
    fn(
      'gh_mfa_copy',
      `if tg_op in ('INSERT', 'UPDATE') then ${mfaUpdate('new.user_id')}; end if;
       if tg_op in ('UPDATE', 'DELETE') then ${mfaUpdate('old.user_id')}; end if;
       return null;`,
    ),
    `create trigger gh_mfa_copy after insert or delete or update of status, user_id on mfa_devices for each row execute function gh_mfa_copy()`,
    fn(
      'gh_provider_copy',
      `if tg_op = 'INSERT' then ${providerUpdate('new.user_id')}; else ${providerUpdate('old.user_id')}; end if;
       return null;`,
    ),
    `create trigger gh_social_copy after insert or delete on social_identities for each row execute function gh_provider_copy()`,
    `create trigger gh_sso_copy after insert or delete on sso_identities for each row execute function gh_provider_copy()`,
  ];
}

const DROP_POSTGRES_TRIGGERS = [
  'drop trigger if exists gh_user_tenants_fill on user_tenants',
  'drop trigger if exists gh_users_copy on users',
  'drop trigger if exists gh_mfa_copy on mfa_devices',
  'drop trigger if exists gh_social_copy on social_identities',
  'drop trigger if exists gh_sso_copy on sso_identities',
  'drop function if exists gh_user_tenants_fill()',
  'drop function if exists gh_users_copy()',
  'drop function if exists gh_mfa_copy()',
  'drop function if exists gh_provider_copy()',
];
