import { SsoPaths } from '@gatehouse/shared/wire';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, describeDialects } from './test/harness';
import { escapeControl, log } from './log';

/** Everything written to the console while `work` runs, one string per record. */
async function records(work: () => Promise<void>): Promise<string[]> {
  const written: string[] = [];
  for (const level of ['info', 'warn', 'error', 'log'] as const) {
    vi.spyOn(console, level).mockImplementation((...parts: unknown[]) => void written.push(parts.map(String).join(' ')));
  }
  await work();
  return written;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the server log', () => {
  it('escapes every control character, so one call writes one line and no terminal escape', () => {
    expect(escapeControl('id\n[1a2b] GET /admin failed\u001b[2J\u0000\u2028')).toBe('id\\n[1a2b] GET /admin failed\\u001b[2J\\u0000\\u2028');
  });

  it('keeps the frames of an error stack but escapes its message, which may quote input', async () => {
    const written = await records(async () => log.error('[trace] failed:', new Error('bad id "x\ny"')));
    expect(written).toHaveLength(1);
    const [first, ...frames] = written[0]!.split('\n');
    expect(first).toBe('[trace] failed: Error: bad id "x\\ny"');
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) expect(frame).toMatch(/^\s+at /);
  });
});

/**
 * Regression: the SAML ACS wrote the configId from the path into the log unescaped, so `%0a`
 * forged a log line without signing in.
 */
describeDialects('log forging through the SAML ACS', (h) => {
  const acs = (configId: string) => SsoPaths.samlAcs.replace('{configId}', configId);
  const form = { rawBody: 'SAMLResponse=PHNhbWw%2B', headers: { 'content-type': 'application/x-www-form-urlencoded' } };

  it('never lets a configId start a record of its own', async () => {
    const server = await h.start();
    const written = await records(async () => {
      for (const configId of ['x%0a%5Bdeadbeef%5D%20GET%20%2Fadmin%20failed', 'x%0d%0aforged', 'x%1b%5B2Jforged', 'x%e2%80%a8forged']) {
        const res = await call(server, 'POST', acs(configId), form);
        expect(res.status).toBeLessThan(500);
      }
    });
    for (const record of written) {
      for (const line of record.split('\n').slice(1)) expect(line).toMatch(/^\s+at /);
      expect(record).not.toMatch(/[\u001b\u2028]/);
    }
  });

  it('writes an unknown configId into its one refusal record, escaped', async () => {
    const server = await h.start();
    const written = await records(async () => {
      const res = await call(server, 'POST', acs('unknown%E2%80%A8config'), form);
      expect(res.status).toBe(401);
    });
    const refusal = written.filter((r) => r.includes('SSO sign-in refused'));
    expect(refusal).toEqual(['SSO sign-in refused (configuration unknown\\u2028config): no enabled SAML configuration has this ACS']);
  });
});
