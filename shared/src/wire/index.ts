/** Wire contract between the identity API and the browser: zod schemas (server-side) and types. */
export * from './error-codes';
export * from './permissions';
export * from './auth';
export * from './users';
export * from './signup';
export * from './recovery';
export * from './public';
export * from './paths';
export * from './claims';
export * from './dev';
export * from './webauthn';
export * from './mfa';
export * from './step-up';
export * from './policies';
export * from './login-strategies';
export * from './passwordless';
