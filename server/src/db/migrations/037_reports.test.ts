import { Permissions } from '@gatehouse/shared/wire';
import { describeBuiltInGrantsMigration } from '../../test/migration-db';

/**
 * Migration 037: accounts made before it get the reports permissions on their built-in roles
 * (Admin both, Read only the read keys), as accounts made after it get them from BuiltInRoles;
 * other roles are left alone, and a grant that exists is not doubled.
 */
describeBuiltInGrantsMigration('037_reports', {
  keys: [Permissions.reportsRead, Permissions.reportsWrite],
  existing: { key: Permissions.reportsRead, name: 'Read reports' },
  category: 'reports',
  grants: 'both reports keys',
});
