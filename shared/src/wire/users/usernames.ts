/** Wire schema of the signed-in user's username (seed 001 section 7 "usernames CRUD"). */
import { z } from 'zod';
import { USERNAME_PATTERN } from './username-paths';

export const CreateUsernameRequest = z.object({
  username: z.string().trim().regex(USERNAME_PATTERN, 'username must be 3 to 64 letters, digits, dots, dashes or underscores'),
}).strict();
export type CreateUsernameRequest = z.infer<typeof CreateUsernameRequest>;
