/**
 * Old path of routes/platform/demo.ts, kept while e2e/hosted-login.e2e.test.ts (edited elsewhere)
 * still imports it; delete it once it imports routes/platform/demo.
 */
export * from '../platform/demo';
