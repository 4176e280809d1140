/** One message of GET /dev/mailbox.json (dev mode only), newest first. Plain data, no zod. */
export interface DevMailboxEntry {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** ISO 8601 */
  createdAt: string;
}

/** Dev-mode paths (404 in production). */
export const DevPaths = {
  mailbox: '/dev/mailbox',
  mailboxJson: '/dev/mailbox.json',
} as const;
