/**
 * Paths of the signed-in user's username (seed 001 section 7 "usernames CRUD"; section 5 "Username
 * save"), without zod: the admin portal's profile section and the server's routes share them.
 */
export const UsernamePaths = {
  /** POST { username }: gives the caller a username (409 when taken, or when they still have one); DELETE: removes it (idempotent). */
  myUsername: '/identity/resources/users/usernames/v1/me',
} as const;

/** A username: letters, digits, dot, dash and underscore, 3 to 64 of them; never an email address, never blank or padded. */
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{3,64}$/;
