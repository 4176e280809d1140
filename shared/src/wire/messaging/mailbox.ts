/** One message of GET /dev/mailbox.json (dev mode only), newest first. Plain data, no zod. */
export interface DevMailboxEntry {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** ISO 8601 */
  createdAt: string;
  /** How it was sent: an email, or an SMS (then `to` is a phone number and `text` the message). */
  channel: 'email' | 'sms';
}

/** Dev-mode paths (404 in production). */
export const DevPaths = {
  mailbox: '/dev/mailbox',
  mailboxJson: '/dev/mailbox.json',
} as const;
