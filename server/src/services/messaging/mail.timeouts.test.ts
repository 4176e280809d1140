import { createServer, type Socket } from 'node:net';
import { expect, it } from 'vitest';
import { systemClock } from '../../clock';
import { describeDialects } from '../../test/harness';
import { DEFAULT_LEASE_MS, runDeadlineFor } from '../connectivity/worker';
import { createMailer, SMTP_TIMEOUTS } from './mail';

describeDialects('mail over SMTP: timeouts', (harness) => {
  /** A TCP server that accepts connections and never says a word. */
  async function muteServer() {
    const sockets: Socket[] = [];
    const mute = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    return {
      url: `smtp://127.0.0.1:${(mute.address() as { port: number }).port}`,
      sockets,
      close: async () => {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => mute.close(() => resolve()));
      },
    };
  }

  it('a mail server that accepts the connection and never greets fails the send within the greeting timeout', async () => {
    const mute = await muteServer();
    try {
      const server = await harness.start();
      const mail = createMailer({ db: server.db, clock: systemClock, config: { smtpUrl: mute.url, mailFrom: 'Gatehouse <no-reply@gatehouse.test>' }, smtpTimeouts: { greetingTimeout: 500 } });
      const started = Date.now();
      await expect(mail.send({ to: 'someone@example.test', subject: 'Hello', text: 'hi', html: '<p>hi</p>' })).rejects.toThrow(/greeting/i);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(mute.sockets.length).toBeGreaterThan(0);
      await mail.close();
    } finally {
      await mute.close();
    }
  });

  it("by default a mute mail server fails the send after 20 s (nodemailer's own default is 30 s), inside an email job's run deadline", async () => {
    const mute = await muteServer();
    try {
      const server = await harness.start();
      const mail = createMailer({ db: server.db, clock: systemClock, config: { smtpUrl: mute.url, mailFrom: 'Gatehouse <no-reply@gatehouse.test>' } });
      const started = Date.now();
      await expect(mail.send({ to: 'someone@example.test', subject: 'Hello', text: 'hi', html: '<p>hi</p>' })).rejects.toThrow(/greeting/i);
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(SMTP_TIMEOUTS.greetingTimeout - 1_000);
      expect(took).toBeLessThan(25_000);
      expect(took).toBeLessThan(runDeadlineFor(DEFAULT_LEASE_MS));
      await mail.close();
    } finally {
      await mute.close();
    }
  }, 40_000);
});
