/** What every Operator route module shares: its guard (super users only) and the common error responses. */
import { z } from '@hono/zod-openapi';
import { operatorGuard } from '../../http/operator-guard';
import type { RouteDeps } from '../deps';
import { err } from '../openapi';

export const operatorErrors = {
  401: err('Not signed in, or signed in with an API token (which acts for a tenant, never as an operator)'),
  403: err('ER-04001: the caller is not a super user (`npm run gatehouse -- users promote <email>`), or a change from an impersonation session'),
};
export const notFound = { 404: err('ER-04004: no such object') };

export const IdParam = z.object({ id: z.string().min(1).max(128) });

/** Declares an Operator route's security and guard: `...guard('read')`. */
export function operatorGuardFor(deps: RouteDeps) {
  const operator = operatorGuard({ db: deps.db, auth: deps.auth, clock: deps.clock, config: deps.config });
  return (access: 'read' | 'write') => ({ security: [{ Bearer: [] }], middleware: [operator(access)] });
}
