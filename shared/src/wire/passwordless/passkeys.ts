/** Passkey names shared by the server and the browser core. Plain data, no zod: the browser may import this file. */

/** The name of the passkeys login strategy (seed 000 section 1). */
export const PASSKEYS_STRATEGY = 'Passkeys';
/** Feature flag that enables the passkey prompt after sign-in (seed 000 section 4.2). */
export const PASSKEYS_FLAG = 'show-passkeys-new';
