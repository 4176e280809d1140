import { z } from 'zod';

/** POST /identity/resources/users/v3/me/unlock (seed 000 section 7.1): the emailed unlock token. */
export const UnlockAccountRequest = z.object({ token: z.string().min(1).max(512) });
export type UnlockAccountRequest = z.infer<typeof UnlockAccountRequest>;
