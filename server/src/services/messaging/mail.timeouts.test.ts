import { createServer, type Socket } from 'node:net';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../clock';
import type { Db } from '../../db';
import { DEFAULT_LEASE_MS, runDeadlineFor } from '../connectivity/worker';
import { createMailer, SMTP_TIMEOUTS } from './mail';

/**
 * Once, not per dialect: with SMTP_URL set the mailer never touches the database (this one throws if
 * it did), so a second run on PostgreSQL would prove nothing more.
 */
const untouchedDb = new Proxy({}, {
  get: (_target, key) => {
    throw new Error(`the SMTP mailer touched the database (${String(key)})`);
  },
}) as Db;

const message = { to: 'someone@example.test', subject: 'Hello', text: 'hi', html: '<p>hi</p>' };
const config = (smtpUrl: string) => ({ smtpUrl, mailFrom: 'Gatehouse <no-reply@gatehouse.test>' });

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

describe('mail over SMTP: timeouts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a mail server that accepts the connection and never greets fails the send within the greeting timeout', async () => {
    const mute = await muteServer();
    try {
      const mail = createMailer({ db: untouchedDb, clock: systemClock, config: config(mute.url), smtpTimeouts: { greetingTimeout: 500 } });
      const started = Date.now();
      await expect(mail.send(message)).rejects.toThrow(/greeting/i);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(mute.sockets.length).toBeGreaterThan(0);
      await mail.close();
    } finally {
      await mute.close();
    }
  });

  it("by default a mute mail server fails the send after 20 s (nodemailer's own default is 30 s), inside an email job's run deadline", async () => {
    const mute = await muteServer();
    // nodemailer's connection and greeting timers are setTimeouts: on a fake clock the 20 s pass at
    // once, while the socket, the mute server and Date stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const mail = createMailer({ db: untouchedDb, clock: systemClock, config: config(mute.url) });
      let outcome: unknown = 'pending';
      void mail.send(message).then(
        () => (outcome = 'sent'),
        (err: unknown) => (outcome = err),
      );
      // Connected: the server holds the socket, and the client has started its greeting timer.
      // Waited for on the real clock (vi.waitFor would move the fake one).
      while (mute.sockets.length === 0) await sleep(5);
      for (let i = 0; i < 5; i++) await nextTurn();

      const notYet = 19_900;
      const failedBy = 20_100;
      await vi.advanceTimersByTimeAsync(notYet);
      expect(outcome, `still waiting for the greeting at ${notYet} ms`).toBe('pending');
      await vi.advanceTimersByTimeAsync(failedBy - notYet);
      expect(outcome).toBeInstanceOf(Error);
      expect((outcome as Error).message).toMatch(/greeting/i);
      expect(SMTP_TIMEOUTS.greetingTimeout).toBe(20_000);
      expect(failedBy).toBeLessThan(runDeadlineFor(DEFAULT_LEASE_MS));
      await mail.close();
    } finally {
      vi.useRealTimers();
      await mute.close();
    }
  });
});
