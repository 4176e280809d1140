import { getRequestListener } from '@hono/node-server';
import { it } from 'vitest';
import { describeDialects } from '../../../../server/src/test/harness.js';
import { listen } from '../test/gatehouse.js';
import { guardScenario } from '../test/guard-scenario.js';
import { requireAuth, requireEntitlement, requirePermissions } from './next.js';

describeDialects('sdk/node guards for Next.js route handlers', (harness) => {
  it('answers 401 without a valid token, 403 without the permission or entitlement, and calls the route handler with the claims otherwise', async () => {
    await guardScenario(harness, (options) => {
      // Route handlers as a Next.js app/api/<route>/route.ts exports them: (Request, context) => Response.
      const routes: Record<string, (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>> = {
        '/me': requireAuth(options)(async (_req, auth) => Response.json({ sub: auth.sub })),
        '/users': requirePermissions(['fe.secure.read.*'], options)(async (_req, auth) => Response.json({ sub: auth.sub })),
        '/export': requirePermissions(['reports.export'], options)(async (_req, auth) => Response.json({ sub: auth.sub })),
        '/reports': requireEntitlement({ featureKey: 'reports' }, options)(async (_req, auth) => Response.json({ sub: auth.sub })),
      };
      const handler = (req: Request) => routes[new URL(req.url).pathname]?.(req, { params: Promise.resolve({}) }) ?? new Response(null, { status: 404 });
      return listen(getRequestListener(handler));
    });
  });
});
