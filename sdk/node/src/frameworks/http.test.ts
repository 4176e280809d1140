import type { ServerResponse } from 'node:http';
import { it } from 'vitest';
import { describeDialects } from '../../../../server/src/test/harness.js';
import { listen } from '../test/gatehouse.js';
import { guardScenario } from '../test/guard-scenario.js';
import type { AccessTokenClaims } from '../verify/verify-access-token.js';
import { requireAuth, requireEntitlement, requirePermissions } from './http.js';

const answer = (res: ServerResponse, auth: AccessTokenClaims) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sub: auth.sub }));

describeDialects('sdk/node guards for node:http', (harness) => {
  it('answers 401 without a valid token, 403 without the permission or entitlement, and runs the handler with the claims otherwise', async () => {
    await guardScenario(harness, (options) => {
      const routes: Record<string, ReturnType<ReturnType<typeof requireAuth>>> = {
        '/me': requireAuth(options)((_req, res, auth) => answer(res, auth)),
        '/users': requirePermissions(['fe.secure.read.*'], options)((_req, res, auth) => answer(res, auth)),
        '/export': requirePermissions(['reports.export'], options)((_req, res, auth) => answer(res, auth)),
        '/reports': requireEntitlement({ featureKey: 'reports' }, options)((_req, res, auth) => answer(res, auth)),
      };
      return listen((req, res) => void (routes[req.url ?? ''] ?? ((_q, r) => Promise.resolve(void r.writeHead(404).end())))(req, res));
    });
  });
});
