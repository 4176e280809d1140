/**
 * The live manifest (issue 18): rendered from the build's cdn-manifest.json and the rollout in the
 * database, every named version verified before it goes live; a manifest naming a missing version,
 * a file with a bad hash, or an unknown bundle is refused and the last good one stays live.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { cdnDirWith, sri, writeVersion } from '../../test/cdn-fixture';
import { describeDialects, movableClock } from '../../test/harness';
import { superUser, type TenantAdmin } from '../../test/admin-helpers';
import { createCdnService, pinKey, type CdnService } from '.';

describeDialects('the live CDN manifest', (h) => {
  let server: GatehouseServer;
  let root: string;
  let clock: ReturnType<typeof movableClock>;
  let logged: string[];
  let cdn: CdnService;
  let operator: TenantAdmin;

  beforeEach(async () => {
    server = await h.start();
    operator = await superUser(server);
    // Each test its own rollout table: earlier tests' rows would change the defaults.
    await server.db.deleteFrom('cdn_pins').execute();
    await server.db.deleteFrom('cdn_rollouts').execute();
    root = cdnDirWith({ 'login-box': '1.0.0', runtime: '1.0.0' });
    clock = movableClock();
    logged = [];
    cdn = createCdnService({ db: server.db, clock, cdnDir: root, log: (m) => logged.push(m) });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** The operator as the Operator area's guard hands them to the service. */
  const asAdmin = async () => ({ userId: operator.userId, email: operator.email, tenantId: operator.tenantId, superUser: true, keys: [], ip: null, userAgent: 'test', auth: {} as never });
  const live = async () => (await cdn.live.current()).manifest!;
  /** A rollout change made by another process: seen after the refresh interval. */
  const later = () => clock.advance(15_000);

  it('serves each bundle\'s default as the build names it, its descriptor taken from the verified folder', async () => {
    const manifest = await live();
    expect(Object.keys(manifest.bundles)).toEqual(['runtime', 'login-box']);
    expect(manifest.bundles['login-box']).toEqual({
      version: '1.0.0',
      entry: 'login-box/1.0.0/remoteEntry.js',
      integrity: sri(readFileSync(path.join(root, 'login-box/1.0.0/remoteEntry.js'))),
      files: { 'login-box/1.0.0/assets/chunk.js': sri(readFileSync(path.join(root, 'login-box/1.0.0/assets/chunk.js'))) },
    });
    expect(logged).toEqual([]);
  });

  it('names the canary and the pinned versions with their descriptors, and pins by a hash of the tenant id, never the id', async () => {
    writeVersion(root, 'login-box', '1.1.0');
    writeVersion(root, 'login-box', '0.9.0');
    const admin = await asAdmin();
    await cdn.promote(admin, 'login-box', { version: '1.1.0', percent: 50 });
    await cdn.promote(admin, 'login-box', { version: '0.9.0', tenants: [operator.tenantId] });
    const bundle = (await live()).bundles['login-box']!;
    const key = createHash('sha256').update(operator.tenantId, 'utf8').digest('base64url');
    expect(pinKey(operator.tenantId)).toBe(key);
    expect(bundle.canary).toEqual({ version: '1.1.0', percent: 50 });
    expect(bundle.pins).toEqual({ [key]: '0.9.0' });
    expect(Object.keys(bundle.versions!).sort()).toEqual(['0.9.0', '1.1.0']);
    expect(bundle.versions!['1.1.0']!.entry).toBe('login-box/1.1.0/remoteEntry.js');
    expect(JSON.stringify(await live())).not.toContain(operator.tenantId);
    expect(bundle.version).toBe('1.0.0');
  });

  it('refuses a rollout naming a missing version: the last good manifest stays live, logged once', async () => {
    const good = await live();
    // Another process (or a hand in the database) names a version that is not published.
    await server.db.insertInto('cdn_rollouts').values({ bundle: 'login-box', default_version: '2.0.0', previous_version: '1.0.0', canary_version: null, canary_percent: null, revision: 1, updated_at: 1 }).execute();
    later();
    expect(await live()).toEqual(good);
    later();
    expect(await live()).toEqual(good);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/login-box 2\.0\.0 \(default\): login-box\/2\.0\.0\/ does not exist/);
    expect(cdn.live.problem()).toContain('2.0.0');
  });

  it('refuses a canary whose file does not match its hash in files.json, and a promotion of it', async () => {
    const good = await live();
    writeVersion(root, 'login-box', '1.2.0');
    appendFileSync(path.join(root, 'login-box/1.2.0/assets/chunk.js'), 'globalThis.tampered = true;\n');
    await expect(cdn.promote(await asAdmin(), 'login-box', { version: '1.2.0', percent: 10 })).rejects.toMatchObject({ status: 409, code: 'ER-04009' });
    await server.db.insertInto('cdn_rollouts').values({ bundle: 'login-box', default_version: '1.0.0', previous_version: null, canary_version: '1.2.0', canary_percent: 10, revision: 1, updated_at: 1 }).execute();
    later();
    expect(await live()).toEqual(good);
    expect(logged.join('\n')).toMatch(/login-box 1\.2\.0 \(canary\): login-box\/1\.2\.0\/assets\/chunk\.js does not match its sha384/);
  });

  it('refuses a build manifest naming an unknown bundle, keeping the last good one', async () => {
    const good = await live();
    writeFileSync(path.join(root, 'cdn-manifest.json'), JSON.stringify({ version: '7.78.0', bundles: { 'login-box': { version: '1.0.0' }, '../../etc': { version: '1.0.0' } } }));
    later();
    expect(await live()).toEqual(good);
    expect(logged.join('\n')).toContain('names an unknown bundle "../../etc"');
  });

  it('goes live again once the problem is fixed, and serves the change within the refresh interval', async () => {
    await server.db.insertInto('cdn_rollouts').values({ bundle: 'login-box', default_version: '2.0.0', previous_version: null, canary_version: null, canary_percent: null, revision: 1, updated_at: 1 }).execute();
    writeVersion(root, 'login-box', '2.0.0');
    expect((await live()).bundles['login-box']!.version).toBe('2.0.0');
    await server.db.updateTable('cdn_rollouts').set({ default_version: '1.0.0', revision: 2 }).execute();
    clock.advance(14_000);
    expect((await live()).bundles['login-box']!.version).toBe('2.0.0');
    clock.advance(1_000);
    expect((await live()).bundles['login-box']!.version).toBe('1.0.0');
  });
});
