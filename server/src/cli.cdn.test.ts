/**
 * `npm run gatehouse -- cdn ...` (issue 18) on both dialects: publish, versions, promote (default,
 * canary, pins), rollback and prune through the same service as the API, each change audited in
 * the first super user's tenant and written to <cdnDir>/cdn-manifest.json; refusals exit 1 and
 * change nothing.
 */
import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { GatehouseServer } from './app';
import { runCli } from './cli';
import { pinKey } from './services/cdn';
import { auditsOf, tenantWithAdmin, type TenantAdmin } from './test/admin-helpers';
import { cdnOperatorServer, snapshotOf, writeVersion } from './test/cdn-fixture';
import { call, describeDialects } from './test/harness';

describeDialects('npm run gatehouse -- cdn', (h) => {
  let server: GatehouseServer;
  let operator: TenantAdmin;
  let cdnDir: string;
  let builds: string;

  beforeEach(async () => {
    ({ server, operator, cdnDir, builds } = await cdnOperatorServer((env) => h.start(env)));
    // The CLI audits in the first super user's tenant: make this test's operator the only one.
    await server.db.updateTable('users').set({ super_user: 0 }).where('id', '!=', operator.userId).execute();
  });
  afterEach(() => {
    rmSync(cdnDir, { recursive: true, force: true });
    rmSync(builds, { recursive: true, force: true });
  });

  /** Runs the CLI on the test's database and CDN folder. */
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const env: NodeJS.ProcessEnv = { GATEHOUSE_DATA_DIR: server.config.dataDir, GATEHOUSE_CDN_DIR: cdnDir, ...(server.config.databaseUrl ? { DATABASE_URL: server.config.databaseUrl } : {}) };
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const written = () => JSON.parse(readFileSync(path.join(cdnDir, 'cdn-manifest.json'), 'utf8'));
  const cdnAudits = async () => (await auditsOf(server, operator.tenantId)).filter((a) => a.action.startsWith('operator.cdn.')).reverse();

  it('publishes a second version, canaries it, pins a tenant to the first, promotes and rolls back, with audit rows and the manifest written each time', async () => {
    const tenant = await tenantWithAdmin(server, 'pinned');
    const build = writeVersion(builds, 'login-box', '1.1.0');
    const published = await cli('cdn', 'publish', build.dir);
    expect(published.code, published.err).toBe(0);
    expect(published.out).toContain('Published login-box 1.1.0: 2 files');
    expect(existsSync(path.join(cdnDir, 'login-box/1.1.0/remoteEntry.js.br'))).toBe(true);
    expect((await cli('cdn', 'publish', build.dir)).out).toContain('already published with the same bytes; nothing changed');

    expect((await cli('cdn', 'promote', 'login-box', '1.1.0', '--percent', '50')).code).toBe(0);
    expect(written().bundles['login-box'].canary).toEqual({ version: '1.1.0', percent: 50 });
    expect((await cli('cdn', 'promote', 'login-box', '1.0.0', '--tenants', tenant.tenantId)).code).toBe(0);
    expect(written().bundles['login-box'].pins).toEqual({ [pinKey(tenant.tenantId)]: '1.0.0' });

    const versions = await cli('cdn', 'versions', 'login-box');
    expect(versions.out).toMatch(/login-box: default 1\.0\.0, canary 1\.1\.0 at 50%/);
    expect(versions.out).toMatch(/1\.1\.0 .* KB over the wire {2}canary 50%/);
    expect(versions.out).toContain(`default, pinned (${tenant.tenantId})`);

    expect((await cli('cdn', 'promote', 'login-box', '1.1.0')).out).toContain('login-box: default 1.1.0, previous 1.0.0, 1 tenant(s) pinned.');
    expect(written().bundles['login-box']).toMatchObject({ version: '1.1.0', previous: '1.0.0' });
    // The server (another process) serves the same rollout.
    expect((await call(server, 'GET', '/cdn/cdn-manifest.json')).body.bundles['login-box'].version).toBe('1.1.0');
    // The compressed copies are the manifest's.
    expect(JSON.parse(brotliDecompressSync(readFileSync(path.join(cdnDir, 'cdn-manifest.json.br'))).toString('utf8'))).toEqual(written());

    expect((await cli('cdn', 'rollback', 'login-box')).out).toContain('rolled back, the default is 1.0.0');
    expect(written().bundles['login-box'].version).toBe('1.0.0');
    const again = await cli('cdn', 'rollback', 'login-box');
    expect([again.code, again.err]).toEqual([1, 'login-box has no previous default to roll back to']);

    const audits = await cdnAudits();
    expect(audits.map((a) => a.action)).toEqual(['operator.cdn.published', 'operator.cdn.promoted', 'operator.cdn.promoted', 'operator.cdn.promoted', 'operator.cdn.rolled-back']);
    expect(audits.every((a) => a.user_agent === 'gatehouse CLI' && a.user_id === null && a.description.endsWith('(from the command line)'))).toBe(true);
    expect(JSON.parse(audits[3]!.json!)).toMatchObject({ bundle: 'login-box', old: { default: '1.0.0', canary: { version: '1.1.0', percent: 50 } }, new: { default: '1.1.0', previous: '1.0.0', canary: null } });
  });

  it('refuses a version published with other bytes, and folders that do not verify, leaving the CDN folder exactly as it was', async () => {
    writeVersion(cdnDir, 'login-box', '1.1.0');
    const before = snapshotOf(cdnDir);
    const other = writeVersion(builds, 'login-box', '1.1.0', '/* another build */');
    const refused = await cli('cdn', 'publish', other.dir);
    expect([refused.code, refused.err]).toEqual([1, 'login-box 1.1.0 is already published with other bytes; a published version never changes: publish a new version']);

    const bad = (name: string, version: string, spoil: (dir: string) => void) => {
      const dir = writeVersion(path.join(builds, name), 'login-box', version).dir;
      spoil(dir);
      return dir;
    };
    const cases: Array<[string, RegExp]> = [
      [bad('hash', '2.0.0', (d) => appendFileSync(path.join(d, 'assets/chunk.js'), 'evil();')), /assets\/chunk\.js does not match its sha384/],
      [bad('unlisted', '2.0.1', (d) => writeFileSync(path.join(d, 'assets/extra.js'), 'evil();')), /assets\/extra\.js is not listed in files\.json/],
      [bad('traversal', '2.0.2', (d) => writeFileSync(path.join(d, 'files.json'), JSON.stringify({ 'login-box/2.0.2/../../../etc/passwd': 'sha384-' + 'A'.repeat(64) }))), /is not a path inside login-box\/2\.0\.2\//],
      [bad('nolist', '2.0.3', (d) => rmSync(path.join(d, 'files.json'))), /files\.json is missing/],
      [bad('brotli', '2.0.4', (d) => writeFileSync(path.join(d, 'remoteEntry.js.br'), 'not brotli')), /remoteEntry\.js\.br does not decode/],
    ];
    const wrongName = path.join(builds, 'evil-bundle', '1.0.0');
    cpSync(other.dir, wrongName, { recursive: true });
    cases.push([wrongName, /bundle of loader, runtime, login-box, admin-portal, checkout/]);
    for (const [dir, message] of cases) {
      const res = await cli('cdn', 'publish', dir);
      expect(res.code, dir).toBe(1);
      expect(res.err, dir).toMatch(message);
    }
    expect(snapshotOf(cdnDir)).toEqual(before);
    expect(await cdnAudits()).toEqual([]);
  });

  it('prunes unused versions beyond the newest N, never one the manifest names', async () => {
    for (const v of ['0.8.0', '0.9.0', '1.1.0']) writeVersion(cdnDir, 'login-box', v);
    expect((await cli('cdn', 'promote', 'login-box', '0.8.0', '--percent', '5')).code).toBe(0);
    const pruned = await cli('cdn', 'prune', '--keep', '1');
    expect(pruned.out).toBe(`Removed login-box 0.9.0.\nWrote ${path.join(cdnDir, 'cdn-manifest.json')}.`);
    expect(readdirSync(path.join(cdnDir, 'login-box')).sort()).toEqual(['0.8.0', '1.0.0', '1.1.0']);
    expect((await cdnAudits()).map((a) => a.action)).toEqual(['operator.cdn.promoted', 'operator.cdn.pruned']);
  });

  it('answers a bad argument with the field and the usage, exit 1, changing nothing', async () => {
    writeVersion(cdnDir, 'login-box', '1.1.0');
    for (const [argv, message] of [
      [['cdn', 'promote', 'login-box', '1.1.0', '--percent', '0'], 'percent'],
      [['cdn', 'promote', 'login-box', '1.1.0', '--percent', 'half'], 'percent'],
      [['cdn', 'promote', 'evil', '1.1.0'], 'bundle: "evil" is not one of'],
      [['cdn', 'promote', 'login-box', '../1.1.0'], 'version'],
      [['cdn', 'promote', 'login-box', '1.1.0', '--tenants', 'no-such-tenant'], 'tenants: no tenant no-such-tenant'],
      [['cdn', 'prune', '--keep', '0'], '--keep N'],
      [['cdn', 'unknown'], 'Unknown command "cdn unknown"'],
    ] as const) {
      const res = await cli(...argv);
      expect(res.code, argv.join(' ')).toBe(1);
      expect(res.err, argv.join(' ')).toContain(message);
    }
    expect(await server.db.selectFrom('cdn_rollouts').selectAll().execute()).toEqual([]);
  });
});
