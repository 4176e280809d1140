/**
 * The client_credentials grant at scale (issue 17): few statements and no write on success, the
 * exchange's per-process cache of a token bounded by 1 s, and the token endpoint's per-IP limit
 * counting failures only, agreed by two servers over one database.
 */
import { ApiTokenPaths, OAuthPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { callAs, pathOf, roleIdByKey, tenantWithAdmin } from '../../test/admin-helpers';
import { call, describeDialects, movableClock } from '../../test/harness';
import { countStatements } from '../../test/statement-counter';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function exchange(server: GatehouseServer, clientId: string, secret: string, ip?: string) {
  const rawBody = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }).toString();
  return call(server, 'POST', OAuthPaths.token, { rawBody, headers: { ...FORM, ...(ip ? { 'x-forwarded-for': ip } : {}) } });
}

/** An address of the test's own (through a trusted proxy), so other tests' counts do not reach it. */
const ownIp = () => `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}::1`;

describeDialects('client_credentials grant (issue 17)', (h) => {
  const env = { RATE_LIMIT_SIGNUP_PER_IP: '1000/60', ACCESS_TOKEN_TTL: '600', TRUST_PROXY: 'true' };

  async function tokenOf(server: GatehouseServer) {
    const admin = await tenantWithAdmin(server);
    const readOnly = await roleIdByKey(server, admin, 'ReadOnly');
    const created = await callAs(server, admin, 'POST', ApiTokenPaths.tenantApiTokens, { body: { description: 'backend', roleIds: [readOnly] } });
    expect(created.status).toBe(201);
    return { admin, token: created.body as { id: string; clientId: string; secret: string } };
  }

  it('runs at most 2 statements, none a write, once the token was read in the last second (the limiter read and the IP restrictions)', async () => {
    const clock = movableClock();
    const server = await h.start(env, { clock });
    const { token } = await tokenOf(server);
    const ip = ownIp();
    const first = await countStatements(server.db, async () => expect((await exchange(server, token.clientId, token.secret, ip)).status).toBe(200));
    expect(first.writes, first.sql.join('\n')).toBe(0);
    const next = await countStatements(server.db, async () => expect((await exchange(server, token.clientId, token.secret, ip)).status).toBe(200));
    expect(next.total, next.sql.join('\n')).toBeLessThanOrEqual(2);
    expect(next.writes).toBe(0);
    // A second later the token is read again: a changed token is never trusted longer than that.
    clock.advance(1_000);
    const later = await countStatements(server.db, async () => expect((await exchange(server, token.clientId, token.secret, ip)).status).toBe(200));
    expect(later.total).toBeGreaterThan(next.total);
    expect(later.writes).toBe(0);
  });

  it('a wrong secret is counted (one write) before its 401, even while the token is cached', async () => {
    const server = await h.start(env);
    const { token } = await tokenOf(server);
    const ip = ownIp();
    expect((await exchange(server, token.clientId, token.secret, ip)).status).toBe(200);
    const wrong = await countStatements(server.db, async () => {
      const res = await exchange(server, token.clientId, 'x'.repeat(43), ip);
      expect([res.status, res.body.error]).toEqual([401, 'invalid_client']);
    });
    expect(wrong.writes).toBe(1);
    expect(wrong.sql.some((s) => /rate_limits/.test(s) && /^insert/i.test(s))).toBe(true);
  });

  it('a token deleted through server A is refused by server B once 1 s has passed (B may still exchange it before), and by A at once', async () => {
    const clock = movableClock();
    const a = await h.start(env, { clock });
    const b = await h.start(env, { clock });
    const { admin, token } = await tokenOf(a);
    const ip = ownIp();
    expect((await exchange(b, token.clientId, token.secret, ip)).status).toBe(200);
    expect((await exchange(a, token.clientId, token.secret, ip)).status).toBe(200);
    expect((await callAs(a, admin, 'DELETE', pathOf(ApiTokenPaths.tenantApiToken, { tokenId: token.id }))).status).toBe(204);
    expect((await exchange(a, token.clientId, token.secret, ip)).status).toBe(401);
    // B read the token less than a second ago: it may still answer from what it read then.
    expect((await exchange(b, token.clientId, token.secret, ip)).status).toBe(200);
    clock.advance(1_000);
    const refused = await exchange(b, token.clientId, token.secret, ip);
    expect([refused.status, refused.body.error]).toEqual([401, 'invalid_client']);
  });

  it('failures counted through server A make server B answer 429 slow_down, even to the right secret; successes alone never do', async () => {
    const limits = { ...env, RATE_LIMIT_OAUTH_TOKEN_PER_IP: '3/600' };
    const a = await h.start(limits);
    const b = await h.start(limits);
    const { token } = await tokenOf(a);
    const ip = ownIp();
    // Successes write nothing to the counter: many more than the limit go through.
    for (let i = 0; i < 6; i++) expect((await exchange(i % 2 ? a : b, token.clientId, token.secret, ip)).status, `success ${i}`).toBe(200);
    for (let i = 0; i < 3; i++) expect((await exchange(a, token.clientId, 'y'.repeat(43), ip)).status, `failure ${i}`).toBe(401);
    const limited = await exchange(b, token.clientId, token.secret, ip);
    expect([limited.status, limited.body.error]).toEqual([429, 'slow_down']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await exchange(a, token.clientId, token.secret, ip)).status).toBe(429);
    // Another client is not affected.
    expect((await exchange(b, token.clientId, token.secret, ownIp())).status).toBe(200);
  });
});
