import { z } from 'zod';

/**
 * The reCAPTCHA v3 action of each protected call: the browser asks for a token with it, the server
 * refuses a token made for another action (a token is bound to what it was made for).
 * reCAPTCHA allows only letters, digits, slashes and underscores in action names.
 */
export const CAPTCHA_ACTIONS = {
  login: 'login',
  signUp: 'signup',
  passwordless: 'passwordless_login',
  forgotPassword: 'forgot_password',
} as const;
export type CaptchaAction = (typeof CAPTCHA_ACTIONS)[keyof typeof CAPTCHA_ACTIONS];

/**
 * GET /identity/resources/configurations/v1/captcha-policy/public: what the login box needs to run
 * reCAPTCHA v3. Never the secret key (nor the ignored emails). Off: `enabled: false`, nulls.
 */
export const CaptchaPolicyResponse = z.object({
  enabled: z.boolean(),
  siteKey: z.string().nullable(),
  /** Lowest accepted score (0.0 bot ... 1.0 human); the server applies it, shown for information. */
  minScore: z.number(),
  /** The reCAPTCHA v3 script to load (the box adds `?render=<siteKey>`). */
  scriptUrl: z.string().nullable(),
});
export type CaptchaPolicyResponse = z.infer<typeof CaptchaPolicyResponse>;
