/**
 * Phone numbers as Gatehouse stores and compares them: E.164 (`+` then 8 to 15 digits, no leading
 * zero). Users type spaces, dashes, dots and brackets; those are dropped. A number without a leading
 * `+` (or `00`) is refused rather than guessed, because its country cannot be known.
 */
const E164 = /^\+[1-9]\d{7,14}$/;
const SEPARATORS = /[\s().-]/g;

/** The E.164 form of what the user typed, or null when it is not a full international number. */
export function normalizePhoneNumber(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > 32) return null;
  let value = input.trim().replace(SEPARATORS, '');
  if (value.startsWith('00')) value = `+${value.slice(2)}`;
  return E164.test(value) ? value : null;
}

/** The message for a number normalizePhoneNumber refused. */
export const INVALID_PHONE_MESSAGE = 'Enter the phone number in international format, starting with + and the country code';

/** A number shown in a message or a list with all but its last 4 digits hidden. */
export function maskPhoneNumber(e164: string): string {
  return e164.length <= 4 ? e164 : `${e164.slice(0, e164.length > 8 ? 3 : 1)}${'•'.repeat(Math.max(0, e164.length - (e164.length > 8 ? 7 : 5)))}${e164.slice(-4)}`;
}
