import { expect, it } from 'vitest';
import { listOutbox, listOutboxAttachments } from '../../db/queries/outbox';
import { describeDialects, uniqueEmail } from '../../test/harness';
import { startSmtpReceiver } from '../../test/smtp-receiver';
import { systemClock } from '../../clock';
import { createMailer } from './mail';

const PDF = Buffer.from('%PDF-1.3\n%\xff\xff\xff\xff\n1 0 obj\n<< >>\nendobj\n%%EOF\n', 'latin1');

describeDialects('mail attachments', (harness) => {
  it('the dev outbox keeps each attachment (bytes unchanged) with its email', async () => {
    const server = await harness.start();
    const mail = createMailer({ db: server.db, clock: systemClock, config: { smtpUrl: null, mailFrom: 'Gatehouse <no-reply@gatehouse.test>' } });
    const to = uniqueEmail('attach');
    await mail.send({ to, subject: 'Report', text: 'attached', html: '<p>attached</p>', attachments: [{ filename: 'report.pdf', contentType: 'application/pdf', content: PDF }] });
    const row = (await listOutbox(server.db)).find((m) => m.to_address === to)!;
    const files = await listOutboxAttachments(server.db, [row.id]);
    expect(files.map((f) => ({ filename: f.filename, contentType: f.content_type }))).toEqual([{ filename: 'report.pdf', contentType: 'application/pdf' }]);
    expect(Buffer.compare(Buffer.from(files[0]!.bytes), PDF)).toBe(0);
    // Without attachments, an email has no rows there.
    await mail.send({ to: `plain-${to}`, subject: 'Plain', text: 'x', html: '<p>x</p>' });
    const plain = (await listOutbox(server.db)).find((m) => m.to_address === `plain-${to}`)!;
    expect(await listOutboxAttachments(server.db, [plain.id])).toEqual([]);
  });

  it('SMTP sends each attachment as a MIME part with its name, type and base64 bytes', async () => {
    const smtp = await startSmtpReceiver('latin1');
    const { received } = smtp;
    try {
      const server = await harness.start();
      const mail = createMailer({ db: server.db, clock: systemClock, config: { smtpUrl: smtp.url, mailFrom: 'Gatehouse <no-reply@gatehouse.test>' } });
      await mail.send({ to: 'someone@example.test', subject: 'Report', text: 'attached', html: '<p>attached</p>', attachments: [{ filename: 'report.pdf', contentType: 'application/pdf', content: PDF }] });
      await mail.close();
      expect(received).toHaveLength(1);
      const raw = received[0]!;
      expect(raw).toMatch(/Content-Type: application\/pdf; name="?report\.pdf"?/);
      expect(raw).toMatch(/Content-Disposition: attachment; filename="?report\.pdf"?/);
      // The part's body follows its headers' blank line, up to the next boundary.
      const body = raw.split(/Content-Disposition: attachment[^\r\n]*\r?\n\r?\n/)[1]!;
      const base64 = body.split(/\r?\n--/)[0]!.replace(/\s+/g, '');
      expect(Buffer.compare(Buffer.from(base64, 'base64'), PDF)).toBe(0);
    } finally {
      await smtp.close();
    }
  });
});
