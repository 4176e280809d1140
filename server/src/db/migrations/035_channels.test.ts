import { beforeAll, expect, it } from 'vitest';
import { BuiltInRoles, Permissions } from '@gatehouse/shared/wire';
import { migrateTo } from '../index';
import { describeMigration, migrateToBefore } from '../../test/migration-db';

const CHANNEL_KEYS = [
  Permissions.emailConfigRead,
  Permissions.emailConfigWrite,
  Permissions.smsConfigRead,
  Permissions.smsConfigWrite,
  Permissions.slackAppRead,
  Permissions.slackAppWrite,
] as string[];

/**
 * Migration 035: accounts made before it get the channels' permissions on their built-in roles
 * (Admin all six, Read only the read keys), as accounts made after it get them from BuiltInRoles;
 * other roles are left alone, and a grant that exists is not doubled.
 */
describeMigration(`migration 035_channels`, (dialect, m) => {

  beforeAll(async () => {
    await migrateToBefore(m.opened.db, dialect, '035_channels');
    const db = m.opened.db as any;
    const now = Date.now();
    await db.insertInto('tenants').values([{ id: 't1', name: 'Old account', is_reseller: 0, created_at: now }, { id: 't2', name: 'Other', is_reseller: 0, created_at: now }]).execute();
    await db
      .insertInto('roles')
      .values([
        { id: 't1-admin', tenant_id: 't1', key: BuiltInRoles.Admin.key, name: 'Admin', is_default: 0, created_at: now },
        { id: 't1-readonly', tenant_id: 't1', key: BuiltInRoles.ReadOnly.key, name: 'Read only', is_default: 1, created_at: now },
        { id: 't1-support', tenant_id: 't1', key: BuiltInRoles.Support.key, name: 'Support', is_default: 0, created_at: now },
        { id: 't2-admin', tenant_id: 't2', key: BuiltInRoles.Admin.key, name: 'Admin', is_default: 0, created_at: now },
      ])
      .execute();
    // One key already in the catalogue and granted to t2's Admin (a deployment that ran this code before the migration).
    await db.insertInto('permissions').values({ id: 'p-existing', key: Permissions.emailConfigRead, name: 'Read email config', description: null, category_id: 'connectivity' }).execute();
    await db.insertInto('role_permissions').values({ role_id: 't2-admin', permission_id: 'p-existing' }).execute();
    // Up to this migration only: later ones grant keys of their own.
    await migrateTo(m.opened.db, dialect, '035_channels');
  });

  const keysOf = async (roleId: string) =>
    (
      await m.opened.db
        .selectFrom('role_permissions as rp')
        .innerJoin('permissions as p', 'p.id', 'rp.permission_id')
        .select('p.key')
        .where('rp.role_id', '=', roleId)
        .execute()
    )
      .map((r) => r.key)
      .sort();

  it('grants every channel key to the built-in Admin roles and the read keys to Read only, and nothing to other roles', async () => {
    expect(await keysOf('t1-admin')).toEqual([...CHANNEL_KEYS].sort());
    expect(await keysOf('t1-readonly')).toEqual(CHANNEL_KEYS.filter((k) => k.includes('.read.')).sort());
    expect(await keysOf('t1-support')).toEqual([]);
    // The existing grant kept once, the others added.
    expect(await keysOf('t2-admin')).toEqual([...CHANNEL_KEYS].sort());
  });

  it('adds the missing keys to the catalogue and keeps the one that was there', async () => {
    const rows = await m.opened.db.selectFrom('permissions').select(['id', 'key', 'category_id']).where('key', 'in', CHANNEL_KEYS).execute();
    expect(rows.map((r) => r.key).sort()).toEqual([...CHANNEL_KEYS].sort());
    expect(rows.find((r) => r.key === Permissions.emailConfigRead)!.id).toBe('p-existing');
    expect(new Set(rows.map((r) => r.category_id))).toEqual(new Set(['connectivity']));
  });
});
