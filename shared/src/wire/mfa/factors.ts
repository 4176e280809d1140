/**
 * Wire schemas of SMS and WebAuthn second factors, the MFA strategies config, and phone-number
 * reset and change (seed 000 sections 2.2, 3, 7.2, 7.3). Paths live in paths.ts.
 */
import { z } from 'zod';
import { MfaStrategyState } from './mfa';
import { PasskeyAuthenticationCredential, PasskeyAuthenticationOptions, PasskeyRegistrationCredential, PasskeyRegistrationOptions } from '../passwordless/webauthn';

export * from './paths';

const OneTimeCode = z.string().trim().regex(/^\d{6}$/, 'The code must be 6 digits');
const MfaTokenField = z.string().min(16).max(128);
const OtcToken = z.string().min(1).max(128);
/** As typed; the server normalizes it to E.164 and answers 400 when it cannot. */
const PhoneNumberField = z.string().trim().min(1, 'Phone number is required').max(32);
const DeviceType = z.enum(['platform', 'cross-platform']);

/** Where a texted code went: its otcToken and the number, masked. */
export const SmsCodeSentResponse = z.object({ otcToken: z.string(), phoneNumber: z.string() });
export type SmsCodeSentResponse = z.infer<typeof SmsCodeSentResponse>;

/** POST auth v1 user/mfa/sms (pre-verify): texts a code to one of the user's phones (the first when no deviceId). */
export const MfaSmsPreVerifyRequest = z.object({ mfaToken: MfaTokenField, deviceId: z.string().min(1).max(64).optional() });
export type MfaSmsPreVerifyRequest = z.infer<typeof MfaSmsPreVerifyRequest>;

/** POST auth v1 user/mfa/sms/verify */
export const MfaSmsVerifyRequest = z.object({ mfaToken: MfaTokenField, otcToken: OtcToken, code: OneTimeCode, rememberDevice: z.boolean().optional() });
export type MfaSmsVerifyRequest = z.infer<typeof MfaSmsVerifyRequest>;

/** forceTwoFactor with SMS (smsSetPhoneNumber): the number to text the first code to. */
export const LoginSmsEnrollRequest = z.object({ mfaToken: MfaTokenField, phoneNumber: PhoneNumberField });
export type LoginSmsEnrollRequest = z.infer<typeof LoginSmsEnrollRequest>;
/** forceTwoFactor with SMS (smsVerifyCode): ends signed in with recovery codes (LoginEnrollResponse). */
export const LoginSmsEnrollVerifyRequest = z.object({ mfaToken: MfaTokenField, otcToken: OtcToken, code: OneTimeCode });
export type LoginSmsEnrollVerifyRequest = z.infer<typeof LoginSmsEnrollVerifyRequest>;

/** The signed-in user's SMS enrolment. */
export const SmsEnrollRequest = z.object({ phoneNumber: PhoneNumberField });
export type SmsEnrollRequest = z.infer<typeof SmsEnrollRequest>;
export const SmsEnrollVerifyRequest = z.object({ otcToken: OtcToken, token: OneTimeCode });
export type SmsEnrollVerifyRequest = z.infer<typeof SmsEnrollVerifyRequest>;
/** Removing a phone: the code texted to it by `mfa/sms/{deviceId}/disable`. */
export const SmsDisableVerifyRequest = z.object({ otcToken: OtcToken, code: OneTimeCode });
export type SmsDisableVerifyRequest = z.infer<typeof SmsDisableVerifyRequest>;

/** Options of navigator.credentials.get() for a second-factor ceremony. */
export const WebAuthnChallengeResponse = z.object({ options: PasskeyAuthenticationOptions });
export type WebAuthnChallengeResponse = z.infer<typeof WebAuthnChallengeResponse>;
/** Options of navigator.credentials.create() for a new security key or platform authenticator. */
export const WebAuthnCreationResponse = z.object({ options: PasskeyRegistrationOptions });
export type WebAuthnCreationResponse = z.infer<typeof WebAuthnCreationResponse>;

/** POST auth v1 user/mfa/webauthn (pre-verify) */
export const MfaWebAuthnPreVerifyRequest = z.object({ mfaToken: MfaTokenField });
export type MfaWebAuthnPreVerifyRequest = z.infer<typeof MfaWebAuthnPreVerifyRequest>;
/** POST auth v1 user/mfa/webauthn/verify: the assertion finishes a sign-in or step-up (amr hwk). */
export const MfaWebAuthnVerifyRequest = z.object({ mfaToken: MfaTokenField, credential: PasskeyAuthenticationCredential, rememberDevice: z.boolean().optional() });
export type MfaWebAuthnVerifyRequest = z.input<typeof MfaWebAuthnVerifyRequest>;

/** forceTwoFactor with WebAuthnPlatform (deviceType platform) or WebAuthnCrossPlatform (cross-platform). */
export const LoginWebAuthnEnrollRequest = z.object({ mfaToken: MfaTokenField, deviceType: DeviceType });
export type LoginWebAuthnEnrollRequest = z.infer<typeof LoginWebAuthnEnrollRequest>;
export const LoginWebAuthnEnrollVerifyRequest = z.object({ mfaToken: MfaTokenField, credential: PasskeyRegistrationCredential, name: z.string().trim().max(100).optional() });
export type LoginWebAuthnEnrollVerifyRequest = z.input<typeof LoginWebAuthnEnrollVerifyRequest>;

/** The signed-in user's WebAuthn enrolment. */
export const WebAuthnEnrollRequest = z.object({ deviceType: DeviceType });
export type WebAuthnEnrollRequest = z.infer<typeof WebAuthnEnrollRequest>;
export const WebAuthnEnrollVerifyRequest = z.object({ credential: PasskeyRegistrationCredential, name: z.string().trim().max(100).optional() });
export type WebAuthnEnrollVerifyRequest = z.input<typeof WebAuthnEnrollVerifyRequest>;
/** Removing a security key: an assertion by that key for the challenge of `mfa/webauthn/{deviceId}/disable`. */
export const WebAuthnDisableVerifyRequest = z.object({ credential: PasskeyAuthenticationCredential });
export type WebAuthnDisableVerifyRequest = z.input<typeof WebAuthnDisableVerifyRequest>;

/** Which MFA methods the vendor has turned on (MFA state `mfaStrategies`). */
export const MfaStrategiesConfigResponse = z.object({ strategies: z.array(MfaStrategyState) });
export type MfaStrategiesConfigResponse = z.infer<typeof MfaStrategiesConfigResponse>;

// ---- Reset phone number (ResetPhoneNumber -> VerifyResetPhoneNumber -> ChangePhoneNumber) and phone change

/** POST users v1 phone/reset: the account email. Always the same answer (no account probing). */
export const ResetPhoneNumberRequest = z.object({ email: z.string().trim().toLowerCase().email().max(320) });
export type ResetPhoneNumberRequest = z.infer<typeof ResetPhoneNumberRequest>;
export const ResetPhoneNumberResponse = z.object({ resetPhoneNumberToken: z.string() });
export type ResetPhoneNumberResponse = z.infer<typeof ResetPhoneNumberResponse>;

/**
 * POST users v1 phone/reset/verify: the emailed code; yields the token that may set a new number.
 * `mfaToken`: the pending mfaToken of a password sign-in of the same user ("Lost your phone?" on the
 * SMS step), not spent here. Without it an account whose phone is an SMS second factor is refused.
 */
export const VerifyResetPhoneNumberRequest = z.object({ resetPhoneNumberToken: z.string().min(16).max(128), code: OneTimeCode, mfaToken: MfaTokenField.optional() });
export type VerifyResetPhoneNumberRequest = z.infer<typeof VerifyResetPhoneNumberRequest>;
export const VerifyResetPhoneNumberResponse = z.object({ changePhoneNumberToken: z.string() });
export type VerifyResetPhoneNumberResponse = z.infer<typeof VerifyResetPhoneNumberResponse>;

/** PUT users v1 phone/change (reset flow): the new number, which gets a texted code. */
export const ChangePhoneNumberRequest = z.object({ changePhoneNumberToken: z.string().min(16).max(128), phoneNumber: PhoneNumberField });
export type ChangePhoneNumberRequest = z.infer<typeof ChangePhoneNumberRequest>;
/** POST users v1 phone (signed in): the new number, which gets a texted code. */
export const AddPhoneNumberRequest = z.object({ phoneNumber: PhoneNumberField });
export type AddPhoneNumberRequest = z.infer<typeof AddPhoneNumberRequest>;
/** Both answer the changePhoneId to verify and the number the code went to, masked. */
export const ChangePhoneNumberResponse = z.object({ changePhoneId: z.string(), phoneNumber: z.string() });
export type ChangePhoneNumberResponse = z.infer<typeof ChangePhoneNumberResponse>;

/** POST users v1 phone/verify: the texted code; the new number replaces the old one. */
export const VerifyPhoneNumberRequest = z.object({ changePhoneId: z.string().min(16).max(128), code: OneTimeCode });
export type VerifyPhoneNumberRequest = z.infer<typeof VerifyPhoneNumberRequest>;
export const VerifyPhoneNumberResponse = z.object({ phoneNumber: z.string() });
export type VerifyPhoneNumberResponse = z.infer<typeof VerifyPhoneNumberResponse>;
