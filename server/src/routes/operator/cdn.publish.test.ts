/**
 * Publishing a CDN version over the operator API (issue 18, OperatorPaths.cdnPublish): the version
 * folder's files in the body, staged and published with the CLI's checks; same bytes again is a
 * no-op, other bytes a 409; hostile names, too many files or bytes, and files that do not verify are
 * a 400 naming the field with nothing written to the CDN folder and no staging folder left behind.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CDN_PUBLISH_MAX_BODY_BYTES, CDN_PUBLISH_MAX_FILES, ErrorCodes, OperatorPaths } from '@gatehouse/shared/wire';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { runCli } from '../../cli';
import { auditsOf, callAs, superUser, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { cdnDirWith, cdnOperatorServer, snapshotOf, uploadOf, writeVersion } from '../../test/cdn-fixture';
import { describeDialects } from '../../test/harness';
import { stepClock } from '../../test/mfa-helpers';

/** The body the portal sends for a version folder: each file by its path inside the folder, in base64. */
const filesOf = (dir: string) => uploadOf(dir);
const b64 = (text: string) => Buffer.from(text).toString('base64');
/** Staging folders this process left in the temp folder. */
const staged = () => readdirSync(tmpdir()).filter((n) => n.startsWith('gatehouse-publish-'));

describeDialects('Publishing a CDN version over the operator API', (h) => {
  let server: GatehouseServer;
  let root: TenantAdmin;
  let cdnDir: string;
  let builds: string;
  let stagedBefore: string[];

  beforeEach(async () => {
    ({ server, operator: root, cdnDir, builds } = await cdnOperatorServer((env) => h.start(env)));
    stagedBefore = staged();
  });
  afterEach(() => {
    // No staging folder is ever left behind, whatever the answer was.
    expect(staged().filter((n) => !stagedBefore.includes(n))).toEqual([]);
    rmSync(cdnDir, { recursive: true, force: true });
    rmSync(builds, { recursive: true, force: true });
  });

  const publish = (body: unknown, who: { accessToken: string } = root, headers?: Record<string, string>) => callAs(server, who, 'POST', OperatorPaths.cdnPublish, { body, ...(headers ? { headers } : {}) });
  const cdnAudits = async () => (await auditsOf(server, root.tenantId)).filter((a) => a.action.startsWith('operator.cdn.'));

  it('publishes a version folder (201), lists it as unused, and audits it; the same bytes again is a 200 no-op, other bytes a 409', async () => {
    const build = writeVersion(builds, 'login-box', '1.1.0');
    const res = await publish({ bundle: 'login-box', version: '1.1.0', files: filesOf(build.dir) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ outcome: 'published', bundle: 'login-box', version: '1.1.0', files: 2 });
    expect(res.body.wireBytes).toBeGreaterThan(0);
    expect(snapshotOf(path.join(cdnDir, 'login-box/1.1.0'))).toEqual(snapshotOf(build.dir));

    const versions = await callAs(server, root, 'GET', OperatorPaths.cdnVersions);
    const box = versions.body.bundles.find((b: { bundle: string }) => b.bundle === 'login-box');
    expect(box.versions.find((v: { version: string }) => v.version === '1.1.0')).toMatchObject({ state: ['unused'], wireBytes: res.body.wireBytes });

    const [audit] = await cdnAudits();
    expect([audit!.action, audit!.user_id, audit!.description]).toEqual(['operator.cdn.published', root.userId, 'login-box 1.1.0 published (2 files)']);
    expect(JSON.parse(audit!.json!)).toMatchObject({ bundle: 'login-box', old: null, new: { version: '1.1.0', files: 2 } });

    const again = await publish({ bundle: 'login-box', version: '1.1.0', files: filesOf(build.dir) });
    expect([again.status, again.body.outcome]).toEqual([200, 'unchanged']);
    const before = snapshotOf(cdnDir);
    const other = writeVersion(path.join(builds, 'other'), 'login-box', '1.1.0', '/* another build */');
    const conflict = await publish({ bundle: 'login-box', version: '1.1.0', files: filesOf(other.dir) });
    expect([conflict.status, conflict.body.errorCode]).toEqual([409, 'ER-04008']);
    expect(conflict.body.errors[0]).toContain('already published with other bytes');
    expect(snapshotOf(cdnDir)).toEqual(before);
    expect((await cdnAudits()).length).toBe(1);
  });

  it('agrees with the CLI: a folder published by the API is "already published with the same bytes" for cdn publish, and the other way round', async () => {
    const a = writeVersion(builds, 'login-box', '1.2.0');
    const b = writeVersion(builds, 'login-box', '1.3.0');
    expect((await publish({ bundle: 'login-box', version: '1.2.0', files: filesOf(a.dir) })).status).toBe(201);
    const out: string[] = [];
    const env: NodeJS.ProcessEnv = { GATEHOUSE_DATA_DIR: server.config.dataDir, GATEHOUSE_CDN_DIR: cdnDir, ...(server.config.databaseUrl ? { DATABASE_URL: server.config.databaseUrl } : {}) };
    const cli = async (dir: string) => {
      out.length = 0;
      const code = await runCli(['cdn', 'publish', dir], { out: (l) => out.push(l), err: (l) => out.push(l), env });
      return { code, out: out.join('\n') };
    };
    expect(await cli(a.dir)).toMatchObject({ code: 0, out: expect.stringContaining('already published with the same bytes') });
    const viaCli = await cli(b.dir);
    expect(viaCli.code, viaCli.out).toBe(0);
    const viaApi = await publish({ bundle: 'login-box', version: '1.3.0', files: filesOf(b.dir) });
    expect([viaApi.status, viaApi.body.outcome]).toEqual([200, 'unchanged']);
    expect(snapshotOf(path.join(cdnDir, 'login-box/1.2.0'))).toEqual(snapshotOf(a.dir));
    expect(snapshotOf(path.join(cdnDir, 'login-box/1.3.0'))).toEqual(snapshotOf(b.dir));
  });

  it('refuses hostile names, bad bundles and versions, odd bodies and files that do not verify with a 400 naming the field, writing nothing', async () => {
    const build = writeVersion(builds, 'login-box', '1.1.0');
    const good = filesOf(build.dir);
    const before = snapshotOf(cdnDir);
    const cases: Array<[unknown, string]> = [
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, '../../../etc/passwd': b64('x') } }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, '/etc/passwd': b64('x') } }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, 'assets/../../x.js': b64('x') } }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, 'assets\\..\\x.js': b64('x') } }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, 'assets//x.js': b64('x') } }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, '': b64('x') } }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, '.htaccess': b64('x') } }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, 'a b.js': b64('x') } }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, 'Files.json': b64('{}') } }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, 'assets': b64('x') } }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, 'x.js': 'not base64!' } }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, 'x.js': 42 } }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: {} }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0', files: [] }, 'files'],
      [{ bundle: 'login-box', version: '1.1.0' }, 'files'],
      [{ bundle: '../login-box', version: '1.1.0', files: good }, 'bundle'],
      [{ bundle: 'evil', version: '1.1.0', files: good }, 'bundle'],
      [{ bundle: 'login-box', version: '../1.1.0', files: good }, 'version'],
      [{ bundle: 'login-box', version: '1.1', files: good }, 'version'],
      [{ bundle: 'login-box', version: '1.1.0', files: good, extra: 1 }, 'extra'],
      // Well-formed names, but the folder does not verify: the CLI's checks, answered as a 400 on files.
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, 'assets/chunk.js': b64('evil();') } }, 'does not match its sha384'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, 'assets/extra.js': b64('evil();') } }, 'is not listed in files.json'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, 'remoteEntry.js.br': b64('not brotli') } }, 'does not decode'],
      [{ bundle: 'login-box', version: '1.1.0', files: Object.fromEntries(Object.entries(good).filter(([p]) => p !== 'files.json')) }, 'files.json is missing'],
      [{ bundle: 'login-box', version: '1.1.0', files: { ...good, 'files.json': b64(JSON.stringify({ 'login-box/1.1.0/../../x': 'sha384-' + 'A'.repeat(64) })) } }, 'is not a path inside'],
      // The files of 1.1.0 sent as another version: files.json names the wrong folder.
      [{ bundle: 'login-box', version: '1.1.1', files: good }, 'is not a path inside login-box/1.1.1/'],
      [{ bundle: 'runtime', version: '1.1.0', files: good }, 'files'],
    ];
    for (const [body, field] of cases) {
      const res = await publish(body);
      const label = JSON.stringify(body).slice(0, 160);
      expect(res.status, label).toBe(400);
      expect(JSON.stringify(res.body.errors), label).toContain(field);
      // The server's temporary path is never shown.
      expect(JSON.stringify(res.body.errors), label).not.toContain('gatehouse-publish-');
    }
    for (const raw of ['{', '[]', 'null', '"x"', `{"bundle":"login-box","version":"1.1.0","files":{"a\\u0000b":"eA=="}}`]) {
      const res = await callAs(server, root, 'POST', OperatorPaths.cdnPublish, { rawBody: raw });
      expect(res.status, raw).toBe(400);
    }
    expect(snapshotOf(cdnDir)).toEqual(before);
    expect(await cdnAudits()).toEqual([]);
  });

  it(`caps the number of files (${CDN_PUBLISH_MAX_FILES}) and the decoded bytes (20 MB) with a 400, and the body of this route only at its own limit (413)`, async () => {
    const before = snapshotOf(cdnDir);
    const many = Object.fromEntries(Array.from({ length: CDN_PUBLISH_MAX_FILES + 1 }, (_, i) => [`f${i}.js`, b64('x')]));
    const tooMany = await publish({ bundle: 'login-box', version: '1.1.0', files: many });
    expect([tooMany.status, tooMany.body.errors.join()]).toEqual([400, `files: at most ${CDN_PUBLISH_MAX_FILES} files`]);

    // 3 bytes over the cap: the body is still within the route's limit, so the answer names the field.
    const half = (extra: number) => Buffer.alloc(10 * 1024 * 1024 + extra, 1).toString('base64');
    const tooBig = await publish({ bundle: 'login-box', version: '1.1.0', files: { 'a.js': half(0), 'b.js': half(3) } });
    expect([tooBig.status, tooBig.body.errors.join()]).toEqual([400, 'files: at most 20 MB decoded, all files together']);

    // Over the server's 1 MB limit but within the route's: reaches the route (a 400 on its content, not a 413).
    const large = await publish({ bundle: 'login-box', version: '1.1.0', files: { 'big.js': Buffer.alloc(2 * 1024 * 1024, 2).toString('base64') } });
    expect(large.status).toBe(400);
    expect(large.body.errors.join()).toContain('files');
    const declared = await callAs(server, root, 'POST', OperatorPaths.cdnPublish, { rawBody: '{}', headers: { 'content-length': String(CDN_PUBLISH_MAX_BODY_BYTES + 1) } });
    expect(declared.status).toBe(413);
    // Every other route keeps the server's limit.
    const other = await callAs(server, root, 'POST', OperatorPaths.cdnPrune, { rawBody: JSON.stringify({ keep: 1, pad: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(other.status).toBe(413);
    expect(snapshotOf(cdnDir)).toEqual(before);
  });

  it('answers a 4xx, never a 5xx, to 300 random bodies mixing hostile names, values and shapes, and writes nothing', async () => {
    const before = snapshotOf(cdnDir);
    let seed = 20261127;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const pick = <T,>(xs: readonly T[]): T => xs[rnd(xs.length)]!;
    const names = ['files.json', 'remoteEntry.js', '../x', '/abs', 'a\\b', 'a\u0000b', '', '.', '..', 'a//b', 'A.js', 'a.js', 'a', 'a/b', 'é.js', '\u202e.js', 'x'.repeat(300), 'a/'.repeat(20) + 'b', 'con', 'nul.js', '__proto__', 'constructor', 'toString'];
    const values: unknown[] = ['', 'eA==', 'eA', '====', '!!!!', 'eA==\n', 42, null, true, [], {}, 'A'.repeat(4000), b64('x'.repeat(100))];
    const shapes: Array<() => unknown> = [
      () => ({ bundle: pick(['login-box', 'runtime', 'evil', '', '..', 7]), version: pick(['1.1.0', '1.1', '../1.1.0', '', '1.1.0-' + 'a'.repeat(70), 1]), files: Object.fromEntries(Array.from({ length: rnd(4) }, () => [pick(names), pick(values)])) }),
      () => ({ bundle: 'login-box', version: '1.1.0', files: pick(values) }),
      () => pick(values),
      () => ({ bundle: 'login-box', version: '1.1.0', files: { [pick(names)]: pick(values) }, [pick(names)]: pick(values) }),
    ];
    for (let i = 0; i < 300; i++) {
      const body = pick(shapes)();
      const res = await callAs(server, root, 'POST', OperatorPaths.cdnPublish, { rawBody: JSON.stringify(body) ?? 'undefined' });
      expect(res.status, JSON.stringify(body)?.slice(0, 200)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)?.slice(0, 200)).toBeLessThan(500);
    }
    expect(snapshotOf(cdnDir)).toEqual(before);
    expect(await cdnAudits()).toEqual([]);
  });

  it('refuses a tenant admin (403 ER-04001), writing nothing', async () => {
    const admin = await tenantWithAdmin(server);
    const build = writeVersion(builds, 'login-box', '1.1.0');
    const res = await publish({ bundle: 'login-box', version: '1.1.0', files: filesOf(build.dir) }, admin);
    expect([res.status, res.body.errorCode]).toEqual([403, 'ER-04001']);
    expect(existsSync(path.join(cdnDir, 'login-box/1.1.0'))).toBe(false);
    expect(await cdnAudits()).toEqual([]);
  });
});

describeDialects('Publishing a CDN version: what reaches the body, bombs and a stale sign-in', (h) => {
  let cdnDir: string;
  let builds: string;
  beforeEach(() => {
    cdnDir = cdnDirWith({ 'login-box': '1.0.0' });
    builds = mkdtempSync(path.join(tmpdir(), 'gatehouse-build-'));
  });
  afterEach(() => {
    rmSync(cdnDir, { recursive: true, force: true });
    rmSync(builds, { recursive: true, force: true });
  });

  it('reads no body before the caller is a super user: a 2 MB body with a control character gets 401 unsigned and 403 as a tenant admin, not 400 or 413', async () => {
    const server = await h.start({ GATEHOUSE_CDN_DIR: cdnDir });
    const admin = await tenantWithAdmin(server);
    // The control-character walk and the server-wide 1 MB limit would answer 400 or 413 had they read it.
    const body = JSON.stringify({ bundle: 'login-box', version: '1.1.0', files: { 'files.json': 'x'.repeat(2 * 1024 * 1024) + '\u0007' } });
    const anonymous = await server.fetch(new Request(`${server.config.publicUrl}${OperatorPaths.cdnPublish}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    expect(anonymous.status).toBe(401);
    expect((await callAs(server, admin, 'POST', OperatorPaths.cdnPublish, { rawBody: body })).status).toBe(403);
    // Other methods on the path keep the server's limit.
    const put = await server.fetch(new Request(`${server.config.publicUrl}${OperatorPaths.cdnPublish}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body }));
    expect(put.status).toBe(413);
    expect(existsSync(path.join(cdnDir, 'login-box/1.1.0'))).toBe(false);
  });

  it('refuses a compression bomb beside a small file (a .gz or .br of 8 MB of zeros), decoding no more than the file, writing nothing', async () => {
    const server = await h.start({ GATEHOUSE_CDN_DIR: cdnDir });
    const root = await superUser(server);
    const build = writeVersion(builds, 'login-box', '1.1.0');
    const files = filesOf(build.dir);
    const { gzipSync, brotliCompressSync } = await import('node:zlib');
    const zeros = Buffer.alloc(8 * 1024 * 1024);
    for (const [suffix, packed] of [['.gz', gzipSync(zeros)], ['.br', brotliCompressSync(zeros)]] as const) {
      const name = Object.keys(files).find((n) => n.endsWith(`chunk.js${suffix}`))!;
      const res = await callAs(server, root, 'POST', OperatorPaths.cdnPublish, { body: { bundle: 'login-box', version: '1.1.0', files: { ...files, [name]: packed.toString('base64') } } });
      expect(res.status, suffix).toBe(400);
      expect(res.body.errorMessage ?? res.body.message ?? JSON.stringify(res.body), suffix).toMatch(new RegExp(`chunk\\.js\\${suffix} does not decode`));
      expect(existsSync(path.join(cdnDir, 'login-box/1.1.0')), suffix).toBe(false);
    }
  });

  it('asks a super user who signed in more than 10 minutes ago to sign in again before publishing or promoting (403 ER-01306); a fresh sign-in may', async () => {
    const clock = stepClock();
    const server = await h.start({ GATEHOUSE_CDN_DIR: cdnDir, ACCESS_TOKEN_TTL: '3600' }, { clock });
    const stale = await superUser(server);
    const build = writeVersion(builds, 'login-box', '1.1.0');
    const body = { bundle: 'login-box', version: '1.1.0', files: filesOf(build.dir) };
    clock.advance(11 * 60_000);
    const publishing = await callAs(server, stale, 'POST', OperatorPaths.cdnPublish, { body });
    expect(publishing.status).toBe(403);
    expect(publishing.body.errorCode).toBe(ErrorCodes.recentAuthRequired);
    expect(existsSync(path.join(cdnDir, 'login-box/1.1.0'))).toBe(false);
    const fresh = await superUser(server);
    expect((await callAs(server, fresh, 'POST', OperatorPaths.cdnPublish, { body })).status).toBe(201);
    const promoting = await callAs(server, stale, 'POST', OperatorPaths.cdnPromote.replace('{bundle}', 'login-box'), { body: { version: '1.1.0' } });
    expect(promoting.status).toBe(403);
    expect(promoting.body.errorCode).toBe(ErrorCodes.recentAuthRequired);
    expect((await callAs(server, fresh, 'POST', OperatorPaths.cdnPromote.replace('{bundle}', 'login-box'), { body: { version: '1.1.0' } })).status).toBe(200);
  });
});
