/** Wire schemas of the account self-service calls (issue 11): email change and activation by code. */
import { z } from 'zod';

const email = z.string().trim().toLowerCase().email().max(320);
const code = z.string().trim().regex(/^\d{6}$/, 'code must be the 6 digits from the email');

/** POST /identity/resources/users/v1/email/me */
export const ChangeEmailRequest = z.object({ email }).strict();
export type ChangeEmailRequest = z.infer<typeof ChangeEmailRequest>;

/** Answer of email/me: where the link and code went (masked), and how long they live. */
export const ChangeEmailResponse = z.object({ email: z.string(), expiresIn: z.number().int() });
export type ChangeEmailResponse = z.infer<typeof ChangeEmailResponse>;

/** POST /identity/resources/users/v1/email/me/verify: the emailed link's token, or (signed in) the emailed code. */
export const VerifyEmailChangeRequest = z
  .object({ token: z.string().min(16).max(512).optional(), code: code.optional() })
  .strict()
  .refine((b) => Boolean(b.token) !== Boolean(b.code), { message: 'Send either token or code' });
export type VerifyEmailChangeRequest = z.infer<typeof VerifyEmailChangeRequest>;

/** Answer of email/me/verify: the account's address now. */
export const VerifyEmailChangeResponse = z.object({ email: z.string() });
export type VerifyEmailChangeResponse = z.infer<typeof VerifyEmailChangeResponse>;

/**
 * POST /identity/resources/users/v1/activate/code (activateWithOTCUrl): the code printed in the
 * activation email, with the address that signed up (or the userId of the sign-up answer). Without
 * the signing-up browser's cookie the password must be chosen here, as with the link.
 */
export const ActivateWithCodeRequest = z
  .object({
    email: email.optional(),
    userId: z.string().min(1).max(64).optional(),
    code,
    password: z.string().max(1024).optional(),
    recaptchaToken: z.string().max(4096).optional(),
  })
  .strict()
  .refine((b) => Boolean(b.email) || Boolean(b.userId), { message: 'email or userId is required' });
export type ActivateWithCodeRequest = z.infer<typeof ActivateWithCodeRequest>;
