import { z } from 'zod';
import { LoginResponse } from '../auth/auth';

/** POST /identity/resources/users/v1/signUp */
export const SignUpRequest = z.object({
  email: z.string().trim().toLowerCase().email().max(320),
  password: z.string().max(1024).optional(),
  name: z.string().trim().min(1).max(200).optional(),
  companyName: z.string().trim().min(1).max(200).optional(),
  phoneNumber: z.string().trim().max(32).optional(),
  metadata: z.string().max(8192).optional(),
  recaptchaToken: z.string().max(4096).optional(),
  invitationToken: z.string().max(512).optional(),
});
export type SignUpRequest = z.infer<typeof SignUpRequest>;

/**
 * POST /identity/resources/users/v1/signUp/phoneNumber: an account identified by its phone number
 * (no email, no password). `phoneNumber` is optional here so that a missing one gets the seed's own
 * message, 'Phone number is required for phone number signup'. Answers like SignUpResponse; the
 * phone is then proven by an SMS one-time code (passwordless smscode), which signs the user in.
 */
export const PhoneSignUpRequest = z.object({
  phoneNumber: z.string().trim().max(32).optional(),
  name: z.string().trim().min(1).max(200).optional(),
  companyName: z.string().trim().min(1).max(200).optional(),
  metadata: z.string().max(8192).optional(),
  recaptchaToken: z.string().max(4096).optional(),
  invitationToken: z.string().max(512).optional(),
});
export type PhoneSignUpRequest = z.infer<typeof PhoneSignUpRequest>;

/**
 * Sign-up response (seed 000 section 3). `activationToken` is never returned for an email that
 * still has to be verified: handing it to the caller would let anyone activate any address.
 */
export const SignUpResponse = z.object({
  shouldActivate: z.boolean(),
  userId: z.string(),
  tenantId: z.string(),
  activationToken: z.string().optional(),
  authResponse: LoginResponse.optional(),
});
export type SignUpResponse = z.infer<typeof SignUpResponse>;

const Strategy = z.object({ enabled: z.boolean(), required: z.boolean() });
/** GET /identity/resources/users/v1/signUp/strategies */
export const SignUpStrategiesResponse = z.object({ email: Strategy, phoneNumber: Strategy });
export type SignUpStrategiesResponse = z.infer<typeof SignUpStrategiesResponse>;

/** POST /identity/resources/users/v1/activate */
export const ActivateRequest = z.object({
  userId: z.string().min(1).max(64),
  token: z.string().min(1).max(512),
  password: z.string().max(1024).optional(),
  recaptchaToken: z.string().max(4096).optional(),
});
export type ActivateRequest = z.infer<typeof ActivateRequest>;

/** GET /identity/resources/users/v1/activate/strategy?userId&token */
export const ActivateStrategyResponse = z.object({ shouldSetPassword: z.boolean() });
export type ActivateStrategyResponse = z.infer<typeof ActivateStrategyResponse>;

/** POST /identity/resources/users/v1/activate/reset (resend the activation email) */
export const ResendActivationRequest = z.object({ email: z.string().trim().toLowerCase().email().max(320) });
export type ResendActivationRequest = z.infer<typeof ResendActivationRequest>;

/** GET /identity/resources/users/v1/passwords/config */
export const PasswordConfig = z.object({
  allowPassphrases: z.boolean(),
  maxLength: z.number().int(),
  minLength: z.number().int(),
  minPhraseLength: z.number().int(),
  minOptionalTestsToPass: z.number().int(),
});
export type PasswordConfig = z.infer<typeof PasswordConfig>;
