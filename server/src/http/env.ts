import type { AdminCaller } from '../services/admin/access';
import type { AuthContext, RequestClient } from '../services/auth/auth';

/** Per-request values set by middleware. */
export interface AppEnv {
  Variables: {
    traceId: string;
    /** Set for every request (http/edge.ts, requestClientOf): IP, user agent and the language asked for. */
    client: RequestClient;
    auth: AuthContext;
    /** Set by the admin guard (http/admin-guard.ts): the caller, its tenant and permissions checked. */
    admin: AdminCaller;
  };
}
