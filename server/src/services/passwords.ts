/**
 * Old path of services/platform/passwords.ts, kept while e2e/sign-in-flows.e2e.test.ts (edited
 * elsewhere) still imports it; delete it once it imports platform/passwords.
 */
export * from './platform/passwords';
