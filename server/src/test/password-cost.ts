/**
 * Setup file of the server's test project (server/vitest.config.ts): fixture passwords are hashed
 * with a cheaper argon2id (services/platform/passwords.ts, TEST_PARAMETERS) instead of the
 * production cost, which took about a third of the route suites' time. The production parameters
 * are proven in services/platform/passwords.test.ts; the built server (e2e, schemathesis) never
 * runs this file.
 */
import { setPasswordHashCostForTests } from '../services/platform/passwords';

setPasswordHashCostForTests('test');
