import type { AdminCaller } from '../services/admin/access';
import type { AuthContext } from '../services/auth/auth';

/** Per-request values set by middleware. */
export interface AppEnv {
  Variables: {
    traceId: string;
    auth: AuthContext;
    /** Set by the admin guard (http/admin-guard.ts): the caller, its tenant and permissions checked. */
    admin: AdminCaller;
  };
}
