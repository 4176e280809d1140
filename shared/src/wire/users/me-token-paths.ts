/**
 * The signed-in user's token call (seed 000 section 7.1 "POST identity/resources/users/v3/me/token"):
 * a module of its own, so only the code that calls it carries the string.
 */
export const ME_TOKEN_PATH = '/identity/resources/users/v3/me/token';
