/**
 * CDN rollouts over the operator API (issue 18): promote to default, canary and tenant pins,
 * rollback, unpin, end a canary, prune; the served manifest follows at once; every change writes an
 * operator audit row with the old and new rollout; only super users may call.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { OperatorPaths } from '@gatehouse/shared/wire';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { pinKey } from '../../services/cdn';
import { auditsOf, callAs, pathOf, superUser, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { cdnDirWith, writeVersion } from '../../test/cdn-fixture';
import { call, describeDialects } from '../../test/harness';

const LOGIN_BOX = { bundle: 'login-box' };

describeDialects('CDN rollouts over the operator API', (h) => {
  let server: GatehouseServer;
  let root: TenantAdmin;
  let cdnDir: string;

  beforeEach(async () => {
    cdnDir = cdnDirWith({ 'login-box': '1.0.0', runtime: '1.0.0' });
    for (const v of ['1.1.0', '1.2.0-beta.1', '0.9.0']) writeVersion(cdnDir, 'login-box', v);
    server = await h.start({ GATEHOUSE_CDN_DIR: cdnDir });
    await server.db.deleteFrom('cdn_pins').execute();
    await server.db.deleteFrom('cdn_rollouts').execute();
    root = await superUser(server);
  });
  afterEach(() => rmSync(cdnDir, { recursive: true, force: true }));

  const promote = (body: unknown, who: { accessToken: string } = root) => callAs(server, who, 'POST', pathOf(OperatorPaths.cdnPromote, LOGIN_BOX), { body });
  const manifest = async () => (await call(server, 'GET', '/cdn/cdn-manifest.json')).body.bundles['login-box'];
  const cdnAudits = async () => (await auditsOf(server, root.tenantId)).filter((a) => a.action.startsWith('operator.cdn.'));

  it('lists every published version newest first, with its state and its size over the wire', async () => {
    const res = await callAs(server, root, 'GET', OperatorPaths.cdnVersions);
    expect(res.status).toBe(200);
    const box = res.body.bundles.find((b: { bundle: string }) => b.bundle === 'login-box');
    expect(box).toMatchObject({ default: '1.0.0', previous: null, canary: null, pins: [] });
    expect(box.versions.map((v: { version: string; state: string[] }) => [v.version, v.state])).toEqual([
      ['1.2.0-beta.1', ['unused']],
      ['1.1.0', ['unused']],
      ['1.0.0', ['default']],
      ['0.9.0', ['unused']],
    ]);
    expect(box.versions[0].wireBytes).toBeGreaterThan(0);
    expect(res.body.bundles.map((b: { bundle: string }) => b.bundle)).toEqual(['runtime', 'login-box']);
  });

  it('promotes a canary, pins a tenant, makes a default and rolls back, each served at once and audited with old and new', async () => {
    const tenant = await tenantWithAdmin(server, 'pinned');
    expect((await promote({ version: '1.1.0', percent: 25 })).body.canary).toEqual({ version: '1.1.0', percent: 25 });
    expect((await manifest()).canary).toEqual({ version: '1.1.0', percent: 25 });

    const pinned = await promote({ version: '0.9.0', tenants: [tenant.tenantId] });
    expect(pinned.status).toBe(200);
    expect(pinned.body.pins).toEqual([{ tenantId: tenant.tenantId, version: '0.9.0' }]);
    expect((await manifest()).pins).toEqual({ [pinKey(tenant.tenantId)]: '0.9.0' });

    const promoted = await promote({ version: '1.1.0' });
    expect(promoted.body).toMatchObject({ default: '1.1.0', previous: '1.0.0', canary: null });
    const served = await manifest();
    expect([served.version, served.previous, served.canary]).toEqual(['1.1.0', '1.0.0', undefined]);
    expect(Object.keys(served.versions)).toEqual(['0.9.0']);

    const rolledBack = await callAs(server, root, 'POST', pathOf(OperatorPaths.cdnRollback, LOGIN_BOX));
    expect(rolledBack.body).toMatchObject({ default: '1.0.0', previous: null });
    expect((await manifest()).version).toBe('1.0.0');
    const again = await callAs(server, root, 'POST', pathOf(OperatorPaths.cdnRollback, LOGIN_BOX));
    expect([again.status, again.body.errorCode]).toEqual([409, 'ER-04010']);
    expect(again.body.errors[0]).toContain('no previous default');

    const audits = (await cdnAudits()).reverse();
    expect(audits.map((a) => a.action)).toEqual(['operator.cdn.promoted', 'operator.cdn.promoted', 'operator.cdn.promoted', 'operator.cdn.rolled-back']);
    expect(audits.every((a) => a.user_id === root.userId)).toBe(true);
    const promotedJson = JSON.parse(audits[2]!.json!);
    expect(promotedJson).toMatchObject({ bundle: 'login-box', old: { default: '1.0.0', previous: null, canary: { version: '1.1.0', percent: 25 } }, new: { default: '1.1.0', previous: '1.0.0', canary: null } });
    expect(JSON.parse(audits[3]!.json!)).toMatchObject({ old: { default: '1.1.0', previous: '1.0.0' }, new: { default: '1.0.0', previous: null } });
  });

  it('unpins a tenant and ends a canary (404 when there is none), audited', async () => {
    const tenant = await tenantWithAdmin(server, 'pinned');
    await promote({ version: '1.1.0', percent: 5 });
    await promote({ version: '0.9.0', tenants: [tenant.tenantId] });
    expect((await callAs(server, root, 'DELETE', pathOf(OperatorPaths.cdnPin, { ...LOGIN_BOX, tenantId: tenant.tenantId }))).status).toBe(204);
    expect((await callAs(server, root, 'DELETE', pathOf(OperatorPaths.cdnCanary, LOGIN_BOX))).status).toBe(204);
    const served = await manifest();
    expect([served.pins, served.canary, served.versions]).toEqual([undefined, undefined, undefined]);
    expect((await callAs(server, root, 'DELETE', pathOf(OperatorPaths.cdnCanary, LOGIN_BOX))).status).toBe(404);
    expect((await callAs(server, root, 'DELETE', pathOf(OperatorPaths.cdnPin, { ...LOGIN_BOX, tenantId: tenant.tenantId }))).status).toBe(404);
    const actions = (await cdnAudits()).map((a) => a.action);
    expect(actions.slice(0, 2)).toEqual(['operator.cdn.canary-removed', 'operator.cdn.pin-removed']);
  });

  it('answers 400 naming the field for a bad version, bundle, percent or tenant, and 404 for an unpublished version, changing nothing', async () => {
    for (const [body, field] of [
      [{ version: '../1.0.0' }, 'version'],
      [{ version: '1.0' }, 'version'],
      [{ version: `1.0.0-${'a'.repeat(64)}` }, 'version'],
      [{ version: '1.1.0', percent: 0 }, 'percent'],
      [{ version: '1.1.0', percent: 101 }, 'percent'],
      [{ version: '1.1.0', percent: 2.5 }, 'percent'],
      [{ version: '1.1.0', tenants: ['no-such-tenant'] }, 'tenants'],
      [{ version: '1.1.0', tenants: ['../x'] }, 'tenants'],
      [{ version: '1.0.0', percent: 10 }, 'version'],
    ] as const) {
      const res = await promote(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.errors), JSON.stringify(body)).toContain(field);
    }
    expect((await callAs(server, root, 'POST', pathOf(OperatorPaths.cdnPromote, { bundle: 'evil' }), { body: { version: '1.1.0' } })).status).toBe(400);
    const missing = await promote({ version: '3.0.0' });
    expect([missing.status, missing.body.errorCode]).toEqual([404, 'ER-04004']);
    expect(await cdnAudits()).toEqual([]);
    expect((await manifest()).version).toBe('1.0.0');
  });

  it('prunes unused versions beyond the newest N, never one the manifest names', async () => {
    const tenant = await tenantWithAdmin(server, 'pinned');
    await promote({ version: '0.9.0', tenants: [tenant.tenantId] });
    const res = await callAs(server, root, 'POST', OperatorPaths.cdnPrune, { body: { keep: 1 } });
    expect(res.status).toBe(200);
    // 1.2.0-beta.1 is the newest (kept); 1.1.0 is unused (removed); 1.0.0 is the default, 0.9.0 pinned.
    expect(res.body.removed).toEqual([{ bundle: 'login-box', version: '1.1.0' }]);
    expect(existsSync(path.join(cdnDir, 'login-box/1.1.0'))).toBe(false);
    expect(['1.2.0-beta.1', '1.0.0', '0.9.0'].every((v) => existsSync(path.join(cdnDir, 'login-box', v)))).toBe(true);
    const [audit] = await cdnAudits();
    expect(audit!.action).toBe('operator.cdn.pruned');
    expect(JSON.parse(audit!.json!)).toMatchObject({ keep: 1, removed: [{ bundle: 'login-box', version: '1.1.0' }] });
    expect((await callAs(server, root, 'POST', OperatorPaths.cdnPrune, { body: { keep: 0 } })).status).toBe(400);
  });

  it('refuses a tenant admin (403 ER-04001) on every CDN route, leaving the rollout and the folder as they were', async () => {
    const admin = await tenantWithAdmin(server);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', OperatorPaths.cdnVersions],
      ['POST', pathOf(OperatorPaths.cdnPromote, LOGIN_BOX), { version: '1.1.0' }],
      ['POST', pathOf(OperatorPaths.cdnRollback, LOGIN_BOX)],
      ['DELETE', pathOf(OperatorPaths.cdnCanary, LOGIN_BOX)],
      ['DELETE', pathOf(OperatorPaths.cdnPin, { ...LOGIN_BOX, tenantId: admin.tenantId })],
      ['POST', OperatorPaths.cdnPrune, { keep: 1 }],
    ];
    for (const [method, p, body] of calls) {
      const res = await callAs(server, admin, method, p, body ? { body } : {});
      expect([res.status, res.body.errorCode], `${method} ${p}`).toEqual([403, 'ER-04001']);
    }
    expect((await manifest()).version).toBe('1.0.0');
    expect(existsSync(path.join(cdnDir, 'login-box/1.1.0'))).toBe(true);
    expect(await server.db.selectFrom('cdn_rollouts').selectAll().execute()).toEqual([]);
  });
});
