import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiPaths } from '@gatehouse/shared/wire';
import { afterEach, expect, it, vi } from 'vitest';
import type { GatehouseServer } from '../../app';
import { call, describeDialects, mailbox, signUpAndActivate } from '../../test/harness';
import { createRateLimiter } from '../platform/rate-limit';
import { createSmsSender, SmsDeliveryError } from './sms';

const PHONE = '+44 20 7946 0958';

async function userWithPhone(server: GatehouseServer) {
  const user = await signUpAndActivate(server);
  expect((await call(server, 'PUT', ApiPaths.me, { token: user.accessToken, body: { phoneNumber: PHONE } })).status).toBe(200);
  return user;
}

const requestSms = (server: GatehouseServer, identifier: string) =>
  call<{ sessionId: string }>(server, 'POST', ApiPaths.passwordsResetSmsV2, { body: { identifier, identifierType: 'email' } });
const verifySms = (server: GatehouseServer, sessionId: string, otcToken: string) => call(server, 'POST', ApiPaths.passwordsResetSmsVerifyV2, { body: { sessionId, otcToken } });

/** A real local HTTP server standing in for an SMS provider. */
async function fakeProvider(status = 202) {
  const received: { method: string; url: string; headers: IncomingMessage['headers']; body: unknown }[] = [];
  const server: Server = createHttpServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: JSON.parse(raw) });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'msg-1', echo: raw }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/messages`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describeDialects('HTTP SMS provider', (h) => {
  const providers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(providers.splice(0).map((p) => p.close()));
    vi.restoreAllMocks();
  });
  const start: typeof h.start = (env = {}) =>
    h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_PASSWORD_RESET_PER_IP: '1000/3600', RATE_LIMIT_PASSWORD_RESET_PER_IDENTIFIER: '1000/3600', ...env });

  it('POSTs {to, body} with the bearer token, and nothing goes to the outbox', async () => {
    const provider = await fakeProvider();
    providers.push(provider);
    const server = await start({ SMS_HTTP_URL: provider.url, SMS_HTTP_TOKEN: 'provider-secret-token' });
    const user = await userWithPhone(server);
    const requested = await requestSms(server, user.email);
    await server.recovery.idle();
    expect(provider.received).toHaveLength(1);
    const [sent] = provider.received;
    expect(sent).toMatchObject({ method: 'POST', url: '/v1/messages', headers: { authorization: 'Bearer provider-secret-token', 'content-type': 'application/json' } });
    expect(sent!.body).toEqual({ to: PHONE, body: expect.stringMatching(/\b\d{6}\b/) });
    expect((await mailbox(server)).filter((m) => m.channel === 'sms')).toHaveLength(0);
    const code = /\b(\d{6})\b/.exec((sent!.body as { body: string }).body)![1]!;
    expect((await verifySms(server, requested.body.sessionId, code)).status).toBe(200);
  });

  it('a refusing provider changes nothing in the answer, and the log holds neither token nor code', async () => {
    const provider = await fakeProvider(500);
    providers.push(provider);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = await start({ SMS_HTTP_URL: `${provider.url}?key=query-secret`, SMS_HTTP_TOKEN: 'provider-secret-token' });
    const user = await userWithPhone(server);
    const res = await requestSms(server, user.email);
    expect(res.status).toBe(200);
    await server.recovery.idle();
    expect(provider.received).toHaveLength(1);
    const text = logged.mock.calls.flat().join(' ');
    expect(text).toContain('answered 500');
    const code = /\b(\d{6})\b/.exec((provider.received[0]!.body as { body: string }).body)![1]!;
    for (const secret of ['provider-secret-token', 'query-secret', code, PHONE]) expect(text).not.toContain(secret);
  });
  it('createSmsSender: a non-2xx answer or an unreachable provider is an SmsDeliveryError naming neither token nor query', async () => {
    const provider = await fakeProvider(401);
    providers.push(provider);
    const server = await start();
    const config = { ...server.config, smsHttpUrl: `${provider.url}?key=query-secret`, smsHttpToken: 'provider-secret-token' };
    const clock = { now: () => Date.now() };
    const sender = createSmsSender({ db: server.db, clock, limiter: createRateLimiter({ db: server.db, clock, config }), config });
    expect(sender.kind).toBe('http');
    const refused = await sender.send({ to: PHONE, body: 'hello' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SmsDeliveryError);
    expect((refused as Error).message).toBe(`SMS provider ${provider.url} answered 401`);
    await provider.close();
    const unreachable = await sender.send({ to: PHONE, body: 'hello' }).catch((e: unknown) => e);
    expect(unreachable).toBeInstanceOf(SmsDeliveryError);
    expect((unreachable as Error).message).toMatch(/could not be reached/);
    expect((unreachable as Error).message).not.toContain('query-secret');
  });
});
