/** Helpers of the SMS, WebAuthn and phone-change route tests: the dev outbox as an inbox, and enrolled users. */
import { expect } from 'vitest';
import { MfaFactorPaths } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../app';
import { call, mailbox, signUpAndActivate, type MailboxEntry } from './harness';
import { SoftAuthenticator } from './soft-authenticator';

/** A unique E.164 number per call, so parallel test files never share one. */
export function uniquePhone(): string {
  return `+4477${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}

/**
 * The dev outbox read like an inbox: `next` answers the 6-digit code of the one message to `to`
 * not read before (messages of one millisecond have no order, so "newest" would be a guess).
 */
export function inbox(server: GatehouseServer) {
  const seen = new Set<string>();
  async function unread(to: string, channel: 'sms' | 'email', subject?: RegExp): Promise<MailboxEntry[]> {
    await server.phoneChange.idle();
    return (await mailbox(server)).filter((m) => m.channel === channel && m.to === to && !seen.has(m.id) && (!subject || subject.test(m.subject)));
  }
  return {
    /** The code of the one unread message to `to` (of `channel`, with a subject matching `subject`). */
    async next(to: string, channel: 'sms' | 'email' = 'sms', subject?: RegExp): Promise<{ code: string; message: MailboxEntry }> {
      const messages = await unread(to, channel, subject);
      if (messages.length !== 1) throw new Error(`expected one new ${channel} to ${to}, found ${messages.length}`);
      const message = messages[0]!;
      seen.add(message.id);
      return { code: /\b(\d{6})\b/.exec(message.text)?.[1] ?? '', message };
    },
    /** How many unread messages went to `to` (and marks them read). */
    async drain(to: string, channel: 'sms' | 'email' = 'sms', subject?: RegExp): Promise<number> {
      const messages = await unread(to, channel, subject);
      for (const m of messages) seen.add(m.id);
      return messages.length;
    },
  };
}

export type Inbox = ReturnType<typeof inbox>;

/** A code that is not `code` (for wrong-code tests). */
export const otherThan = (code: string) => (code === '000000' ? '000001' : '000000');

/** Signs up, activates and enrols a phone through the users API; returns the user and its device id. */
export async function smsEnrolledUser(server: GatehouseServer, box: Inbox, phone = uniquePhone()) {
  const user = await signUpAndActivate(server);
  const started = await call(server, 'POST', MfaFactorPaths.smsEnroll, { token: user.accessToken, body: { phoneNumber: phone } });
  expect(started.status).toBe(200);
  const verified = await call(server, 'POST', MfaFactorPaths.smsEnrollVerify, { token: user.accessToken, body: { otcToken: started.body.otcToken, token: (await box.next(phone)).code } });
  expect(verified.status).toBe(200);
  return { ...user, phone, recoveryCodes: verified.body.recoveryCodes as string[] };
}

/** Signs up, activates and enrols a security key (cross-platform unless `platform`) through the users API. */
export async function keyEnrolledUser(server: GatehouseServer, platform = false) {
  const user = await signUpAndActivate(server);
  const key = new SoftAuthenticator();
  const options = await call(server, 'POST', MfaFactorPaths.webauthnEnroll, { token: user.accessToken, body: { deviceType: platform ? 'platform' : 'cross-platform' } });
  expect(options.status).toBe(200);
  const credential = platform ? key.create(options.body.options) : asRoaming(key.create(options.body.options));
  const verified = await call(server, 'POST', MfaFactorPaths.webauthnEnrollVerify, { token: user.accessToken, body: { credential, name: 'Yubikey' } });
  expect(verified.status).toBe(200);
  return { ...user, key, recoveryCodes: verified.body.recoveryCodes as string[] };
}

/** A registration as a USB security key reports it (the soft authenticator says platform/internal). */
export function asRoaming<T extends { response: object }>(credential: T): T {
  return { ...credential, authenticatorAttachment: 'cross-platform', response: { ...credential.response, transports: ['usb'] } };
}
