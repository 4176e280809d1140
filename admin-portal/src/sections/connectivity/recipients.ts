/**
 * Recipients of an email or SMS subscription as the admin types them: separated by commas,
 * semicolons, spaces or new lines, each checked before anything is sent (the server checks them
 * again, and normalises them: emails lower-cased, phone numbers to E.164).
 */
import type { RecipientChannel } from './connectivity-api';

/** The server's limit (shared/src/wire/connectivity/channel-paths.ts MAX_RECIPIENTS_PER_SUBSCRIPTION). */
export const MAX_RECIPIENTS = 20;

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;
/** As the server takes them: international format, starting with + (or 00) and the country code. */
const PHONE = /^(\+|00)[1-9][0-9().-]{6,28}$/;

/** The recipients in `text`, in order, without blanks or repeats. Phone numbers may not hold spaces here: a space separates. */
export function splitRecipients(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const value = part.trim();
    const key = value.toLowerCase();
    if (!value || seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}

/** The recipients that are not an address of the channel. */
export function invalidRecipients(channel: RecipientChannel, recipients: readonly string[]): string[] {
  const pattern = channel === 'email' ? EMAIL : PHONE;
  return recipients.filter((recipient) => !pattern.test(recipient) || recipient.length > 320);
}
