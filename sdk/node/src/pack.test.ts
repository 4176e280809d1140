/**
 * The package as users get it: built (ESM + .d.ts), packed with `npm pack`, installed from the
 * tarball into a scratch app offline (jose, its only dependency, from a tarball of the repo's copy),
 * then its example run against a real Gatehouse server listening on a port, and a TypeScript file
 * type-checked against the packed declarations through the exports map.
 */
import { serve } from '@hono/node-server';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { tenantWithAdmin } from '../../../server/src/test/admin-helpers.js';
import { describeDialects } from '../../../server/src/test/harness.js';

const pkgDir = path.resolve(import.meta.dirname, '..');
const repo = path.resolve(pkgDir, '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'gatehouse-node-pack-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const childEnv = (env: Record<string, string>) => ({ ...process.env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...env });
/**
 * Never execFileSync: a blocked event loop starves what this worker has in flight (the PostgreSQL
 * database the dialect harness makes while the SQLite block runs timed out its connection on a
 * fresh-clone CI run), and the Gatehouse server the example calls is served from this process.
 */
const run = async (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) => (await promisify(execFile)(cmd, args, { cwd, env: childEnv(env), encoding: 'utf8', timeout: 180_000 })).stdout;

/** Built, packed and installed once for the file: the dialects share the scratch app. */
let installed: Promise<{ app: string; own: string }> | undefined;
const install = () =>
  (installed ??= (async () => {
    await run('npm', ['run', 'build'], pkgDir);
    // One npm for the package's tarball and jose's: npm pack takes several folders and packs each as
    // on its own (the package's tarball is byte for byte the one `npm pack` makes in its folder).
    await run('npm', ['pack', pkgDir, path.join(repo, 'node_modules/jose'), '--pack-destination', scratch], scratch);
    const tarballs = readdirSync(scratch).filter((f) => f.endsWith('.tgz'));
    const own = tarballs.find((f) => f.startsWith('gatehouse-node-'))!;
    const jose = tarballs.find((f) => f.startsWith('jose-'))!;
    const app = path.join(scratch, 'app');
    mkdirSync(app, { recursive: true });
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'scratch-host', private: true, type: 'module' }));
    await run('npm', ['install', `../${own}`, `../${jose}`], app);
    return { app, own };
  })());

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

it('packs only the built output, examples and docs, and type-checks a host file through its exports map', async () => {
  const { app, own } = await install();
  const packed = (await run('tar', ['-tzf', path.join(scratch, own)], scratch)).split('\n').filter(Boolean);
  expect(packed).toContain('package/dist/index.js');
  expect(packed).toContain('package/dist/index.d.ts');
  expect(packed.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('package/examples/'))).toEqual([]);
  expect(packed.filter((f) => f.includes('.test.'))).toEqual([]);

  copyFileSync(path.join(app, 'node_modules/@gatehouse/node/examples/typed.ts'), path.join(app, 'typed.ts'));
  const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
  await run('node', [tsc, '--noEmit', '--strict', '--skipLibCheck', 'false', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', '--typeRoots', path.join(repo, 'node_modules/@types'), 'typed.ts'], app);
}, 300_000);

describeDialects('@gatehouse/node installed from its tarball into a scratch app', (harness) => {
  it('runs its node:http example against a real server: 401 without a token, the claims with one', async () => {
    const { app } = await install();
    const port = await freePort();
    const server = await harness.start({ GATEHOUSE_PUBLIC_URL: `http://127.0.0.1:${port}`, GATEHOUSE_ALLOWED_ORIGINS: `http://127.0.0.1:${port}` });
    const listener = serve({ fetch: server.fetch, port, hostname: '127.0.0.1' });
    try {
      const admin = await tenantWithAdmin(server);
      const example = path.join(app, 'node_modules/@gatehouse/node/examples/http-server.mjs');
      copyFileSync(example, path.join(app, 'example.mjs'));
      const out = await run('node', ['example.mjs'], app, { GATEHOUSE_BASE_URL: server.config.publicUrl, GATEHOUSE_CLIENT_ID: server.config.clientId, ACCESS_TOKEN: admin.accessToken, NODE_PATH: '' });
      expect(JSON.parse(out)).toEqual({ sub: admin.userId, anonymous: [401, { errors: [expect.any(String)], errorCode: 'ER-01004' }], signedIn: [200, { hello: admin.userId }] });
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  }, 300_000);
});
