/**
 * The sessions policy endpoint (GET|POST /identity/resources/configurations/sessions/v1) over HTTP,
 * on both dialects: saving and reading, the vendor floor (tighten only), validation, the audit row,
 * the dry run checked against the real effect, and the immediate sign-out of breaking sessions.
 * Enforcement at sign-in and refresh: sessions-policy.enforcement.test.ts.
 */
import { ApiPaths, ErrorCodes, SecurityErrorCodes, SecurityPaths, type PolicyDryRun, type SessionsPolicyBody } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { activeMember, auditsOf, callAs, memberWithoutPermissions, signIn, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { call, describeDialects, movableClock } from '../../test/harness';
import { liveSessionIds, RATE_LIMITS, sessionsPolicy } from '../../test/sessions-policy-helpers';

const save = (server: GatehouseServer, admin: TenantAdmin, body: unknown, query = '') => callAs(server, admin, 'POST', `${SecurityPaths.sessionsPolicy}${query}`, { body });
const read = (server: GatehouseServer, admin: TenantAdmin) => callAs(server, admin, 'GET', SecurityPaths.sessionsPolicy);

describeDialects('sessions policy endpoint', (h) => {
  const start: typeof h.start = (env = {}, overrides) => h.start({ ...RATE_LIMITS, ...env }, overrides);

  it("GET answers the vendor's policy without id; POST creates the tenant's own, a second POST updates it (same id); each save is audited with old and new values", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const vendor = await read(server, admin);
    expect(vendor.status).toBe(200);
    expect(vendor.body).toEqual(sessionsPolicy());

    const created = await save(server, admin, sessionsPolicy({ idle: 1200, max: 3 }));
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ ...sessionsPolicy({ idle: 1200, max: 3 }), id: expect.any(String) });
    expect((await read(server, admin)).body).toEqual(created.body);

    const updated = await save(server, admin, sessionsPolicy({ idle: 600, relogin: 7200, max: 3 }));
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...sessionsPolicy({ idle: 600, relogin: 7200, max: 3 }), id: created.body.id });

    const audits = (await auditsOf(server, admin.tenantId)).filter((a) => a.action === 'Sessions policy updated');
    expect(audits).toHaveLength(2);
    expect(audits.map((a) => a.user_id)).toEqual([admin.userId, admin.userId]);
    const [second, first] = audits.map((a) => JSON.parse(a.json!));
    expect(first).toMatchObject({ policyId: created.body.id, old: sessionsPolicy(), new: sessionsPolicy({ idle: 1200, max: 3 }) });
    expect(second).toMatchObject({ policyId: created.body.id, old: sessionsPolicy({ idle: 1200, max: 3 }), new: sessionsPolicy({ idle: 600, relogin: 7200, max: 3 }) });
  });

  it('refuses bad input with a 400 naming the field, and saves nothing', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const good = sessionsPolicy({ idle: 900 });
    const cases: [unknown, string][] = [
      [{ ...good, sessionIdleTimeoutConfiguration: { isActive: true, timeout: 30 } }, 'sessionIdleTimeoutConfiguration.timeout'],
      [{ ...good, sessionTimeoutConfiguration: { isActive: 'yes', timeout: 600 } }, 'sessionTimeoutConfiguration.isActive'],
      [{ ...good, sessionConcurrentConfiguration: { isActive: true, maxSessions: 0 } }, 'sessionConcurrentConfiguration.maxSessions'],
      [{ ...good, sessionConcurrentConfiguration: { isActive: true, maxSessions: 2.5 } }, 'sessionConcurrentConfiguration.maxSessions'],
      [{ sessionIdleTimeoutConfiguration: good.sessionIdleTimeoutConfiguration, sessionTimeoutConfiguration: good.sessionTimeoutConfiguration }, 'sessionConcurrentConfiguration'],
    ];
    for (const [body, field] of cases) {
      const res = await save(server, admin, body);
      expect(res.status, field).toBe(400);
      expect(res.body.errorCode).toBe(ErrorCodes.validation);
      expect(res.body.errors.join(' '), field).toContain(field);
    }
    expect((await save(server, admin, { ...good, extra: 1 })).status).toBe(400);
    expect((await save(server, admin, good, '?dryRun=maybe')).status).toBe(400);
    // A policy with every setting off signs no one out: the dry run has nothing to report.
    expect((await save(server, admin, sessionsPolicy(), '?dryRun=true')).body).toEqual({ dryRun: true, policy: sessionsPolicy(), effects: [] });
    expect((await read(server, admin)).body).toEqual(sessionsPolicy());
    expect((await auditsOf(server, admin.tenantId)).filter((a) => a.action === 'Sessions policy updated')).toHaveLength(0);
  });

  it("tighten only: the vendor's SESSION_* settings are the floor; a looser save is refused with 400 ER-02801 naming the field and the vendor's value", async () => {
    const server = await start({ SESSION_IDLE_TIMEOUT: '900', SESSION_FORCE_RELOGIN: '86400', SESSION_MAX_CONCURRENT: '5' });
    const admin = await tenantWithAdmin(server);
    const floor = sessionsPolicy({ idle: 900, relogin: 86_400, max: 5 });
    expect((await read(server, admin)).body).toEqual(floor);

    const looser: [SessionsPolicyBody, string, string][] = [
      [{ ...floor, sessionIdleTimeoutConfiguration: { isActive: false, timeout: 900 } }, 'sessionIdleTimeoutConfiguration.isActive', '900 seconds'],
      [{ ...floor, sessionIdleTimeoutConfiguration: { isActive: true, timeout: 901 } }, 'sessionIdleTimeoutConfiguration.timeout', "vendor's 900 seconds"],
      [{ ...floor, sessionTimeoutConfiguration: { isActive: false, timeout: 3600 } }, 'sessionTimeoutConfiguration.isActive', '86400 seconds'],
      [{ ...floor, sessionTimeoutConfiguration: { isActive: true, timeout: 90_000 } }, 'sessionTimeoutConfiguration.timeout', "vendor's 86400 seconds"],
      [{ ...floor, sessionConcurrentConfiguration: { isActive: false, maxSessions: 5 } }, 'sessionConcurrentConfiguration.isActive', '5 sessions'],
      [{ ...floor, sessionConcurrentConfiguration: { isActive: true, maxSessions: 6 } }, 'sessionConcurrentConfiguration.maxSessions', "vendor's 5 sessions"],
    ];
    for (const [body, field, vendorValue] of looser) {
      for (const query of ['', '?dryRun=true']) {
        const res = await save(server, admin, body, query);
        expect(res.status, `${field}${query}`).toBe(400);
        expect(res.body.errorCode).toBe(SecurityErrorCodes.policyLooserThanVendor);
        expect(res.body.errors[0]).toContain(field);
        expect(res.body.errors[0]).toContain(vendorValue);
        expect(res.body.errorContext.field).toBe(field);
      }
    }
    expect((await read(server, admin)).body).toEqual(floor);

    // Equal or tighter is saved.
    const tighter = sessionsPolicy({ idle: 600, relogin: 86_400, max: 2 });
    const saved = await save(server, admin, tighter);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...tighter, id: expect.any(String) });
  });

  it("tighten only, by merging: a tenant's own policy saved under a looser vendor stays within the vendor's later, stricter floor", async () => {
    const clock = movableClock();
    const loose = await start({}, { clock });
    const admin = await tenantWithAdmin(loose);
    expect((await save(loose, admin, sessionsPolicy({ idle: 3600, max: 8 }))).status).toBe(200);
    const strict = await start({ SESSION_IDLE_TIMEOUT: '900', SESSION_MAX_CONCURRENT: '4', SESSION_FORCE_RELOGIN: '7200' }, { clock });
    const effective = await read(strict, admin);
    expect(effective.body).toEqual({ ...sessionsPolicy({ idle: 900, relogin: 7200, max: 4 }), id: expect.any(String) });
  });

  it('reading needs fe.secure.read.securityPolicy and writing fe.secure.write.securityPolicy: 403 without, nothing saved', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const plain = await memberWithoutPermissions(server, admin.tenantId);
    const asPlain = { tenantId: admin.tenantId };
    const get = await callAs(server, plain, 'GET', SecurityPaths.sessionsPolicy, asPlain);
    const post = await callAs(server, plain, 'POST', SecurityPaths.sessionsPolicy, { ...asPlain, body: sessionsPolicy({ max: 1 }) });
    expect([get.status, post.status]).toEqual([403, 403]);
    expect(post.body.errorCode).toBe('ER-01005');
    expect((await callAs(server, { accessToken: 'not-a-token' }, 'GET', SecurityPaths.sessionsPolicy)).status).toBe(401);
    expect((await read(server, admin)).body).toEqual(sessionsPolicy());
  });

  it("dry run counts, from the tenant's live sessions, what the save then really signs out (idle too long, too old, beyond the maximum: oldest first), saving nothing", async () => {
    const clock = movableClock();
    const server = await start({ ACCESS_TOKEN_TTL: '7200' }, { clock });
    const admin = await tenantWithAdmin(server);
    const m = await activeMember(server, admin);
    const n = await activeMember(server, admin);
    const early: string[] = [];
    for (let i = 0; i < 2; i++) {
      clock.advance(1000);
      early.push((await signIn(server, m.email)).refreshCookie!);
    }
    // 400 s later: three fresh sign-ins of m; with a maximum of 2 the oldest of them goes.
    clock.advance(400_000);
    const fresh: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      fresh.push((await signIn(server, m.email)).refreshCookie!);
    }
    clock.advance(300_000);
    const liveBefore = await liveSessionIds(server, admin.tenantId, clock.now());
    // admin: 1 (activation); m: accepted invitation + 2 early + 3 fresh; n: accepted invitation.
    expect(liveBefore).toHaveLength(8);

    const body = sessionsPolicy({ idle: 600, max: 2 });
    const preview = await save(server, admin, body, '?dryRun=true');
    expect(preview.status).toBe(200);
    const dry = preview.body as PolicyDryRun;
    expect(dry.dryRun).toBe(true);
    expect(dry.policy).toEqual(body);
    const effect = (code: string) => dry.effects.find((e) => e.code === code)!;
    // Idle longer than 600 s: admin's, m's invitation and 2 early sessions, n's. Beyond 2: m's oldest fresh one.
    expect(effect('SESSIONS_SIGNED_OUT_IDLE')).toMatchObject({ affected: 5, total: 8, message: 'The new idle timeout signs out 5 sessions now.' });
    expect(effect('SESSIONS_SIGNED_OUT_CONCURRENT').affected).toBe(1);
    // Forced re-login stays off: no effect of it.
    expect(dry.effects.map((e) => e.code).sort()).toEqual(['SESSIONS_SIGNED_OUT', 'SESSIONS_SIGNED_OUT_CONCURRENT', 'SESSIONS_SIGNED_OUT_IDLE']);
    expect(effect('SESSIONS_SIGNED_OUT')).toMatchObject({ affected: 6, total: 8 });
    // Nothing saved, nobody signed out.
    expect((await read(server, admin)).body).toEqual(sessionsPolicy());
    expect(await liveSessionIds(server, admin.tenantId, clock.now())).toEqual(liveBefore);
    expect((await auditsOf(server, admin.tenantId)).filter((a) => a.action === 'Sessions policy updated')).toHaveLength(0);

    const saved = await save(server, admin, body);
    expect(saved.status).toBe(200);
    const liveAfter = await liveSessionIds(server, admin.tenantId, clock.now());
    expect(liveBefore.length - liveAfter.length).toBe(effect('SESSIONS_SIGNED_OUT').affected);
    // The two newest of m survive, and only they.
    expect(liveAfter).toHaveLength(2);
    const refresh = async (cookie: string) => (await call(server, 'POST', ApiPaths.refresh, { cookie, body: {} })).status;
    expect(await refresh(fresh[0]!)).toBe(401);
    expect(await refresh(fresh[1]!)).toBe(200);
    expect(await refresh(fresh[2]!)).toBe(200);
    expect(await refresh(early[0]!)).toBe(401);
    const audit = (await auditsOf(server, admin.tenantId)).find((a) => a.action === 'Sessions policy updated')!;
    expect(JSON.parse(audit.json!).signedOut).toEqual({ idle: 5, forceRelogin: 0, concurrent: 1, total: 6 });
    // The admin's own session was idle too: it ended with the save.
    expect((await read(server, admin)).status).toBe(401);
    void n;
  });

  it('forced re-login takes effect at once: saving it signs out every session signed in longer ago, whatever its refreshes', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const admin = await tenantWithAdmin(server);
    const m = await activeMember(server, admin);
    let cookie = (await signIn(server, m.email)).refreshCookie!;
    // Refreshed every 1500 s, signed in 4500 s ago.
    for (let i = 0; i < 3; i++) {
      clock.advance(1_500_000);
      const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie, body: {} });
      expect(refreshed.status).toBe(200);
      cookie = refreshed.refreshCookie!;
    }
    // The admin signs in now: younger than the limit.
    const fresh = await signIn(server, admin.email);
    const freshAdmin = { ...admin, accessToken: fresh.body.accessToken as string };
    const preview = (await save(server, freshAdmin, sessionsPolicy({ relogin: 3600 }), '?dryRun=true')).body as PolicyDryRun;
    const before = await liveSessionIds(server, admin.tenantId, clock.now());
    const saved = await save(server, freshAdmin, sessionsPolicy({ relogin: 3600 }));
    expect(saved.status).toBe(200);
    const after = await liveSessionIds(server, admin.tenantId, clock.now());
    expect(preview.effects.find((e) => e.code === 'SESSIONS_SIGNED_OUT_FORCE_RELOGIN')!.affected).toBe(before.length - after.length);
    expect(after).toHaveLength(1);
    const ended = await call(server, 'POST', ApiPaths.refresh, { cookie, body: {} });
    expect(ended.status).toBe(401);
  });
});
