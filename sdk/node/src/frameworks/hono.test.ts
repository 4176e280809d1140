import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { it } from 'vitest';
import { describeDialects } from '../../../../server/src/test/harness.js';
import { listen } from '../test/gatehouse.js';
import { guardScenario } from '../test/guard-scenario.js';
import type { AccessTokenClaims } from '../verify/verify-access-token.js';
import { requireAuth, requireEntitlement, requirePermissions } from './hono.js';

describeDialects('sdk/node middleware for Hono', (harness) => {
  it("answers 401 without a valid token, 403 without the permission or entitlement, and sets c.get('auth') otherwise", async () => {
    await guardScenario(harness, (options) => {
      const app = new Hono<{ Variables: { auth: AccessTokenClaims } }>();
      app.use('/me', requireAuth(options));
      app.use('/users', requirePermissions(['fe.secure.read.*'], options));
      app.use('/export', requirePermissions(['reports.export'], options));
      app.use('/reports', requireEntitlement({ featureKey: 'reports' }, options));
      for (const path of ['/me', '/users', '/export', '/reports']) app.get(path, (c) => c.json({ sub: c.get('auth').sub }));
      return listen(getRequestListener(app.fetch));
    });
  });
});
