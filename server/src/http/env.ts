import type { AuthContext } from '../services/auth';

/** Per-request values set by middleware. */
export interface AppEnv {
  Variables: {
    traceId: string;
    auth: AuthContext;
  };
}
