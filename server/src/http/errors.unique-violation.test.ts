/**
 * Regression (concurrent identical creates answered 500 on PostgreSQL): a unique violation no
 * service mapped reaches the error handler as a 409 with a generic "already exists" body, on both
 * dialects and for both kinds of index (a unique constraint and a primary key).
 */
import { ErrorCodes } from '@gatehouse/shared/wire';
import { Hono } from 'hono';
import { expect, it } from 'vitest';
import { findRoleByKey, insertRole } from '../db/queries/roles';
import { isUniqueViolation } from '../db/unique-violation';
import { tenantWithAdmin } from '../test/admin-helpers';
import { describeDialects } from '../test/harness';
import type { AppEnv } from './env';
import { onError } from './errors';

describeDialects('error handler: unmapped unique violations', (harness) => {
  it('answers 409 "already exists" instead of 500 for a duplicate key or id (unique violation fallback)', async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const role = (await findRoleByKey(server.db, admin.tenantId, 'Admin'))!;
    const app = new Hono<AppEnv>().onError(onError);
    app.post('/duplicate-key', async (c) => {
      await insertRole(server.db, { ...role, id: `${role.id}-copy` }, []);
      return c.body(null, 204);
    });
    app.post('/duplicate-id', async (c) => {
      await insertRole(server.db, { ...role, key: 'AnotherKey' }, []);
      return c.body(null, 204);
    });
    app.post('/other-failure', () => {
      throw Object.assign(new Error('not null violation'), { code: '23502' });
    });

    for (const path of ['/duplicate-key', '/duplicate-id']) {
      const res = await app.request(path, { method: 'POST' });
      expect(res.status, path).toBe(409);
      expect(await res.json()).toEqual({ errors: ['This already exists'], errorCode: ErrorCodes.alreadyExists });
    }
    const other = await app.request('/other-failure', { method: 'POST' });
    expect(other.status).toBe(500);
    expect(await insertRole(server.db, { ...role, id: `${role.id}-copy` }, []).catch(isUniqueViolation)).toBe(true);
  });
});
