import { z } from 'zod';

const identifier = {
  email: z.string().trim().toLowerCase().max(320).optional(),
  username: z.string().trim().min(1).max(320).optional(),
  /** SmsCodeV2 (type smscode): the phone number the user typed; the server normalizes it to E.164. */
  phoneNumber: z.string().trim().min(1).max(32).optional(),
};

/**
 * POST /identity/resources/auth/v1/passwordless/{type}/prelogin: emails a magic link or a 6-digit
 * code to the account of the identifier. Always 200 `{}`, known account or not.
 */
export const PasswordlessPreLoginRequest = z
  .object({ ...identifier, recaptchaToken: z.string().max(4096).optional() })
  .refine((b) => b.email || b.username || b.phoneNumber, { message: 'email, username or phoneNumber is required' });
export type PasswordlessPreLoginRequest = z.input<typeof PasswordlessPreLoginRequest>;

/**
 * The prelogin answer: `{}`, or for a typed phone number (smscode) that number masked, so the
 * loginWithSmsOtc step can say where the code went. It is the typed number, never looked up.
 */
export const PasswordlessPreLoginResponse = z.object({ phoneNumber: z.string().optional() });
export type PasswordlessPreLoginResponse = z.infer<typeof PasswordlessPreLoginResponse>;

/**
 * POST /identity/resources/auth/v1/passwordless/{type}/postlogin: `{ token }` from a magic link, or
 * the identifier and `code` of an emailed code. Answers like a password sign-in (LoginResponse).
 */
export const PasswordlessPostLoginRequest = z.object({
  ...identifier,
  token: z.string().trim().min(1).max(512).optional(),
  code: z.string().trim().max(16).optional(),
});
export type PasswordlessPostLoginRequest = z.input<typeof PasswordlessPostLoginRequest>;

/** The path parameter of both calls. */
export const PasswordlessTypeParam = z.object({ type: z.enum(['magiclink', 'code', 'smscode']) });
