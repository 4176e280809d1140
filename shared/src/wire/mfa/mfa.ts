/**
 * MFA and step-up wire contract (seed 000 sections 3, 4.8, 4.9, 7.2, 7.3): request and response
 * schemas shared by the server routes and the browser flow. The `MfaStrategies` / `MfaAuthMethods`
 * constants are plain data the browser may use.
 */
import { z } from 'zod';
import { LoginResponse } from '../auth/auth';

/** MFA methods of seed 000 section 3 (the ones Gatehouse implements so far are marked by the server). */
export const MfaStrategies = {
  authenticatorApp: 'AuthenticatorApp',
  emailCode: 'EmailCode',
  sms: 'SMS',
  webAuthnPlatform: 'WebAuthnPlatform',
  webAuthnCrossPlatform: 'WebAuthnCrossPlatform',
} as const;
export type MfaStrategy = (typeof MfaStrategies)[keyof typeof MfaStrategies];

/** `amr` values added by a second factor beyond AuthMethods (auth/claims.ts): an emailed code, a recovery code. */
export const MfaAuthMethods = { email: 'email', recoveryCode: 'rc' } as const;

/** MFA enforcement of a tenant (or the vendor default): `force` makes users enrol at sign-in. */
export const MfaEnforce = { optional: 'optional', force: 'force' } as const;
export type MfaEnforce = (typeof MfaEnforce)[keyof typeof MfaEnforce];

/** A one-time code as typed by the user: digits only after trimming spaces. */
const OneTimeCode = z.string().trim().regex(/^\d{6}$/, 'The code must be 6 digits');
const MfaTokenField = z.string().min(16).max(128);

/** Devices grouped by kind (seed 000 section 3: webauthn, phones, authenticators, emails). */
export const MfaDevices = z.object({
  webauthn: z.array(z.object({ id: z.string(), deviceType: z.string(), name: z.string().optional(), createdAt: z.string() })),
  phones: z.array(z.object({ id: z.string(), phoneNumber: z.string(), createdAt: z.string() })),
  authenticators: z.array(z.object({ id: z.string(), createdAt: z.string() })),
  emails: z.array(z.object({ id: z.string(), email: z.string(), createdAt: z.string() })),
});
export type MfaDevices = z.infer<typeof MfaDevices>;

export const MfaStrategyState = z.object({ strategy: z.string(), isActive: z.boolean() });
export type MfaStrategyState = z.infer<typeof MfaStrategyState>;

/** What a login that needs a second factor returns instead of a session (no access token, no cookie). */
export const MfaRequiredResponse = LoginResponse.extend({
  mfaRequired: z.literal(true),
  mfaToken: z.string(),
  /** false: the MFA policy forces enrolment and the user has no factor yet (forceTwoFactor). */
  mfaEnrolled: z.boolean(),
  mfaStrategies: z.array(MfaStrategyState),
  mfaDevices: MfaDevices,
  /** Whether this device may be remembered, and for how many days (checkIfAllowToRememberMfaDevice). */
  allowRememberDevice: z.boolean(),
  rememberDeviceDays: z.number().int(),
});
export type MfaRequiredResponse = z.infer<typeof MfaRequiredResponse>;

/** POST auth v1 user/mfa/verify: the mfaToken of a login or step-up and an authenticator code. */
export const MfaVerifyRequest = z.object({ mfaToken: MfaTokenField, value: OneTimeCode, rememberDevice: z.boolean().optional() });
export type MfaVerifyRequest = z.infer<typeof MfaVerifyRequest>;

/** POST auth v1 user/mfa/emailcode: sends a code to the user's email for this mfaToken. */
export const MfaEmailCodePreVerifyRequest = z.object({ mfaToken: MfaTokenField });
export type MfaEmailCodePreVerifyRequest = z.infer<typeof MfaEmailCodePreVerifyRequest>;
export const MfaEmailCodePreVerifyResponse = z.object({ otcToken: z.string() });
export type MfaEmailCodePreVerifyResponse = z.infer<typeof MfaEmailCodePreVerifyResponse>;

/** POST auth v1 user/mfa/emailcode/verify */
export const MfaEmailCodeVerifyRequest = z.object({ mfaToken: MfaTokenField, otcToken: z.string().min(1).max(128), code: OneTimeCode, rememberDevice: z.boolean().optional() });
export type MfaEmailCodeVerifyRequest = z.infer<typeof MfaEmailCodeVerifyRequest>;

/** POST auth v1 user/mfa/recover (recoverMfaToken): finishes a login with a recovery code. */
export const MfaRecoverRequest = z.object({ mfaToken: MfaTokenField, recoveryCode: z.string().trim().min(8).max(64) });
export type MfaRecoverRequest = z.infer<typeof MfaRecoverRequest>;

/** POST checkIfAllowToRememberMfaDevice: the mfaToken goes in the body, never in a URL (logs, history, Referer). */
export const MfaRememberDeviceRequest = z.object({ mfaToken: MfaTokenField });
export type MfaRememberDeviceRequest = z.infer<typeof MfaRememberDeviceRequest>;
export const MfaRememberDeviceResponse = z.object({ isAllowedToRemember: z.boolean(), mfaDeviceExpiration: z.number().int() });
export type MfaRememberDeviceResponse = z.infer<typeof MfaRememberDeviceResponse>;

/** Authenticator enrolment: QR image (data URL), the otpauth:// URI and the base32 secret for manual entry. */
export const AuthenticatorEnrollResponse = z.object({ qrCode: z.string(), uri: z.string(), secret: z.string() });
export type AuthenticatorEnrollResponse = z.infer<typeof AuthenticatorEnrollResponse>;

/** Login-time enrolment (forceTwoFactor) carries the mfaToken instead of a bearer token. */
export const LoginAuthenticatorEnrollRequest = z.object({ mfaToken: MfaTokenField });
export type LoginAuthenticatorEnrollRequest = z.infer<typeof LoginAuthenticatorEnrollRequest>;
export const LoginAuthenticatorEnrollVerifyRequest = z.object({ mfaToken: MfaTokenField, token: OneTimeCode });
export type LoginAuthenticatorEnrollVerifyRequest = z.infer<typeof LoginAuthenticatorEnrollVerifyRequest>;

/** Signed-in enrolment verification: the first code from the app (or the emailed code). */
export const EnrollVerifyRequest = z.object({ token: OneTimeCode });
export type EnrollVerifyRequest = z.infer<typeof EnrollVerifyRequest>;

/** Recovery codes, shown once after enrolment (seed 4.8: enrolment moves to the recoveryCode step). */
export const RecoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponse>;

/** Login-time enrolment ends signed in, with the recovery codes to show once. */
export const LoginEnrollResponse = LoginResponse.extend({ recoveryCodes: z.array(z.string()) });
export type LoginEnrollResponse = z.infer<typeof LoginEnrollResponse>;

/** Disabling a device (or all MFA) needs a current code or a recovery code. */
export const MfaDisableRequest = z.object({ code: z.string().trim().min(6).max(64) });
export type MfaDisableRequest = z.infer<typeof MfaDisableRequest>;

/** POST auth v1 user/step-up/generate: an mfaToken for the caller's own session. */
export const StepUpGenerateResponse = z.object({ mfaToken: z.string(), mfaStrategies: z.array(MfaStrategyState), mfaDevices: MfaDevices });
export type StepUpGenerateResponse = z.infer<typeof StepUpGenerateResponse>;

/** The signed-in user's MFA state for the management screens. */
export const MfaStatusResponse = z.object({ enrolled: z.boolean(), enforce: z.enum(['optional', 'force']), devices: MfaDevices, recoveryCodesLeft: z.number().int() });
export type MfaStatusResponse = z.infer<typeof MfaStatusResponse>;

/** Signed-in EmailCode enrolment: the otcToken from `emailcode/enroll` and the emailed code. */
export const EmailCodeEnrollVerifyRequest = z.object({ otcToken: z.string().min(1).max(128), token: OneTimeCode });
export type EmailCodeEnrollVerifyRequest = z.infer<typeof EmailCodeEnrollVerifyRequest>;
