import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { insertOutbox, insertOutboxAttachments } from '../../db/queries/outbox';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The sender name shown to the recipient (the tenant's); MAIL_FROM's address is always the sender address. */
  fromName?: string;
  /** Files sent with the message (a report's PDF): MIME parts over SMTP, `outbox_attachments` rows in the dev outbox. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** MAIL_FROM with the sender name replaced by `name` (line breaks and angle brackets dropped), or MAIL_FROM as it is. */
export function senderOf(mailFrom: string, name: string | undefined): string | { name: string; address: string } {
  const clean = name?.replace(/[\r\n<>"]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 100);
  if (!clean) return mailFrom;
  const address = /<([^<>]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return { name: clean, address };
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export interface SmtpTimeouts {
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
}

/**
 * How long SMTP may take (nodemailer's defaults: 2 min to connect, 10 min of silence): well under
 * the delivery queue's run deadline (55 s of a 60 s lease), so a mute mail server fails an email
 * job's attempt instead of outliving its lease.
 */
export const SMTP_TIMEOUTS: SmtpTimeouts = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 30_000 };

/** SMTP when SMTP_URL is set, otherwise the database outbox shown at /dev/mailbox. */
export function createMailer(deps: { db: Db; clock: Clock; config: Pick<Config, 'smtpUrl' | 'mailFrom'>; smtpTimeouts?: Partial<SmtpTimeouts> }): Mailer {
  const { db, clock, config } = deps;
  if (config.smtpUrl) {
    const smtpUrl = config.smtpUrl;
    // nodemailer loads with the first email, not at start: a start without mail to send skips it.
    // Parameters in SMTP_URL's query string still win (nodemailer reads the URL last).
    const openTransport = async () => (await import('nodemailer')).default.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS, ...deps.smtpTimeouts });
    let transport: ReturnType<typeof openTransport> | undefined;
    return {
      async send(m) {
        await (await (transport ??= openTransport())).sendMail({
          from: senderOf(config.mailFrom, m.fromName),
          to: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          ...(m.attachments?.length ? { attachments: m.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })) } : {}),
        });
      },
      async close() {
        // A transport that never opened has nothing to close.
        (await transport?.catch(() => undefined))?.close();
      },
    };
  }
  return {
    async send(m) {
      const id = newId();
      const row = { id, to_address: m.to, subject: m.subject, text_body: m.text, html_body: m.html, created_at: clock.now() };
      if (!m.attachments?.length) return insertOutbox(db, row);
      const attachments = m.attachments;
      await db.transaction().execute(async (trx) => {
        await insertOutbox(trx, row);
        await insertOutboxAttachments(trx, attachments.map((a) => ({ id: newId(), outbox_id: id, filename: a.filename, content_type: a.contentType, bytes: a.content })));
      });
    },
    async close() {},
  };
}

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);
}
