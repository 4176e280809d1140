/**
 * Old path of services/platform/phone.ts, kept while db/migrations/009_sms_login.ts and
 * e2e/sms-login.e2e.test.ts (edited elsewhere) still import it; delete it once they import platform/phone.
 */
export * from './platform/phone';
