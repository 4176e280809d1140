/**
 * Error codes of phone-number reset that the login box never compares (ER-0131x, after the MFA
 * range). Apart from ErrorCodes because the browser core exports that whole object before the login
 * form; the box only shows these errors' messages. Plain data, no zod.
 */
export const PhoneErrorCodes = {
  /** Reset phone number: the phone is an SMS second factor, so the reset must start from a password sign-in ("Lost your phone?"). */
  phoneResetNeedsPassword: 'ER-01310',
  /** The deployment's SMS budget (RATE_LIMIT_SMS_GLOBAL) is used up: no text is sent until the window ends. */
  smsBudgetExhausted: 'ER-01311',
} as const;

export type PhoneErrorCode = (typeof PhoneErrorCodes)[keyof typeof PhoneErrorCodes];
