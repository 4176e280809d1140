import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';
import { checkOutboundTarget, checkOutboundUrl, guardedFetch, type OutboundPolicy, type Resolver } from './outbound';

const strict: OutboundPolicy = { allowPrivate: false };
const dev: OutboundPolicy = { allowPrivate: true };

let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await receiver.stop();
});

const reason = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return (e as { reason?: string }).reason;
  }
  return 'no refusal';
};

describe('guardedFetch (SSRF guard for tenant-given URLs)', () => {
  it('outside dev mode refuses plain http, credentials, fragments and what is not a URL', () => {
    expect(() => checkOutboundUrl('http://example.com/hook', strict)).toThrow(/https/);
    expect(() => checkOutboundUrl('ftp://example.com/hook', strict)).toThrow(/https/);
    expect(() => checkOutboundUrl('https://user:pw@example.com/hook', strict)).toThrow(/credentials/);
    expect(() => checkOutboundUrl('https://example.com/hook#x', strict)).toThrow(/fragment/);
    expect(() => checkOutboundUrl('not a url', strict)).toThrow(/absolute URL/);
    expect(checkOutboundUrl('https://example.com/hook', strict).host).toBe('example.com');
  });

  it('outside dev mode allows only ports 443 and 8443, so saving and sending are no port scan', async () => {
    for (const port of ['22', '80', '6379', '8080', '9200', '1']) {
      expect(() => checkOutboundUrl(`https://example.com:${port}/hook`, strict), port).toThrow(/port 443 or 8443/);
      expect(await reason(guardedFetch(`https://93.184.216.34:${port}/hook`, { body: '{}' }, strict))).toBe('invalid_url');
    }
    expect(checkOutboundUrl('https://example.com:443/hook', strict).port).toBe('');
    expect(checkOutboundUrl('https://example.com:8443/hook', strict).port).toBe('8443');
    // Dev mode (local receivers on any port) is not restricted.
    expect(checkOutboundUrl(`http://127.0.0.1:${receiver.port}/hook`, dev).port).toBe(String(receiver.port));
  });

  it('saving says the same of a name that does not resolve and of one that resolves to a private address (no probe of internal names)', async () => {
    const resolve: Resolver = async (name) => (name === 'db.internal.example' ? [{ address: '10.0.0.5', family: 4 }] : name === 'mixed.example' ? [{ address: '93.184.216.34', family: 4 }, { address: '192.168.0.1', family: 4 }] : []);
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const messages = new Set<string>();
    for (const [url, r] of [['https://db.internal.example/h', resolve], ['https://mixed.example/h', resolve], ['https://nothing.example/h', resolve], ['https://nothing.example/h', failing]] as const) {
      try {
        await checkOutboundTarget(url, { ...strict, resolve: r });
        messages.add('accepted');
      } catch (e) {
        messages.add((e as Error).message);
      }
    }
    expect([...messages]).toEqual(['must point to a host that resolves to public addresses only']);
  });

  const forbidden = [
    '127.0.0.1', '127.1.2.3', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '[::1]', '[::]', '[fe80::1]', '[fd00::1]', '[fc00::1]', '[ff02::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::ffff:10.0.0.1]', '[64:ff9b::7f00:1]', 'localhost', 'api.localhost',
  ];
  for (const host of forbidden) {
    it(`outside dev mode refuses ${host} (before any connection)`, async () => {
      expect(await reason(guardedFetch(`https://${host}/hook`, { body: '{}' }, strict))).toBe('forbidden_address');
    });
  }

  it('refuses a host name that resolves to a private address, when saved and at connect', async () => {
    const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    expect(await reason(checkOutboundTarget('https://internal.example/hook', { ...strict, resolve }))).toBe('forbidden_address');
    expect(await reason(guardedFetch('https://internal.example/hook', { body: '{}' }, { ...strict, resolve }))).toBe('forbidden_address');
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a DNS answer that changes between the check and the connect (rebinding)', async () => {
    let calls = 0;
    // First answer public (what the save-time check sees), then loopback (what the attacker serves at connect time).
    const resolve: Resolver = async () => (++calls === 1 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
    // Port 443 on loopback: refused by the lookup, the connect never happens (it would fail as 'network' otherwise).
    const url = 'https://rebind.example/hook';
    await expect(checkOutboundTarget(url, { ...strict, resolve })).resolves.toBeInstanceOf(URL);
    expect(await reason(guardedFetch(url, { body: '{}' }, { ...strict, resolve }))).toBe('forbidden_address');
    expect(calls).toBe(2);
    expect(receiver.received).toHaveLength(0);
  });

  it('connects to the address its own lookup answered (the resolver is the one the socket uses)', async () => {
    // Only the injected resolver knows this name: a delivery arriving proves the connect used the checked answer.
    const resolve: Resolver = async (name) => (name === 'receiver.test' ? [{ address: '127.0.0.1', family: 4 }] : []);
    const res = await guardedFetch(`http://receiver.test:${receiver.port}/hook`, { body: '{"a":1}', headers: { 'content-type': 'application/json', 'x-k': 'v' } }, { ...dev, resolve });
    expect(res.status).toBe(200);
    expect(res.body).toBe('ok');
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]).toMatchObject({ method: 'POST', path: '/hook', body: '{"a":1}' });
    expect(receiver.received[0]!.headers['x-k']).toBe('v');
    expect(await reason(guardedFetch(`http://unknown.test:${receiver.port}/hook`, {}, { ...dev, resolve }))).toBe('unresolvable');
  });

  it('does not follow redirects: the 3xx is the answer', async () => {
    const target = await startWebhookReceiver();
    try {
      receiver.script({ status: 302, headers: { location: target.url } });
      const res = await guardedFetch(receiver.url, { body: '{}' }, dev);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(target.url);
      expect(target.received).toHaveLength(0);
    } finally {
      await target.stop();
    }
  });

  it('gives up when no answer comes within the deadline', async () => {
    receiver.script('hang');
    const started = Date.now();
    expect(await reason(guardedFetch(receiver.url, { body: '{}', timeoutMs: 300 }, dev))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('reads the answer body up to 64 KB', async () => {
    receiver.script({ status: 200, body: 'x'.repeat(200 * 1024) });
    const res = await guardedFetch(receiver.url, { body: '{}' }, dev);
    expect(res.body).toHaveLength(64 * 1024);
    expect(res.truncated).toBe(true);
    receiver.script({ status: 500, body: 'small' });
    const small = await guardedFetch(receiver.url, { body: '{}' }, dev);
    expect(small).toMatchObject({ status: 500, body: 'small', truncated: false });
  });

  it('reports a refused connection as a network failure', async () => {
    const port = receiver.port;
    await receiver.stop();
    expect(await reason(guardedFetch(`http://127.0.0.1:${port}/hook`, { body: '{}' }, dev))).toBe('network');
    receiver = await startWebhookReceiver();
  });
});
