import { Permissions } from '@gatehouse/shared/wire';
import { describeBuiltInGrantsMigration } from '../../test/migration-db';

/**
 * Migration 035: accounts made before it get the channels' permissions on their built-in roles
 * (Admin all six, Read only the read keys), as accounts made after it get them from BuiltInRoles;
 * other roles are left alone, and a grant that exists is not doubled.
 */
describeBuiltInGrantsMigration('035_channels', {
  keys: [Permissions.emailConfigRead, Permissions.emailConfigWrite, Permissions.smsConfigRead, Permissions.smsConfigWrite, Permissions.slackAppRead, Permissions.slackAppWrite],
  existing: { key: Permissions.emailConfigRead, name: 'Read email config' },
  category: 'connectivity',
  grants: 'every channel key',
});
