import express from 'express';
import { it } from 'vitest';
import { describeDialects } from '../../../../server/src/test/harness.js';
import { listen } from '../test/gatehouse.js';
import { guardScenario } from '../test/guard-scenario.js';
import type { AccessTokenClaims } from '../verify/verify-access-token.js';
import { requireAuth, requireEntitlement, requirePermissions } from './express.js';

describeDialects('sdk/node middleware for Express', (harness) => {
  it('answers 401 without a valid token, 403 without the permission or entitlement, and passes req.auth to the route otherwise', async () => {
    await guardScenario(harness, (options) => {
      const app = express();
      const answer = (req: express.Request, res: express.Response) => void res.json({ sub: (req as express.Request & { auth: AccessTokenClaims }).auth.sub });
      app.get('/me', requireAuth(options), answer);
      app.get('/users', requirePermissions(['fe.secure.read.*'], options), answer);
      app.get('/export', requirePermissions(['reports.export'], options), answer);
      app.get('/reports', requireEntitlement({ featureKey: 'reports' }, options), answer);
      return listen(app);
    });
  });
});
