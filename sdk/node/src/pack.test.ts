/**
 * The package as users get it: built (ESM + .d.ts), packed with `npm pack`, installed from the
 * tarball into a scratch app offline (jose, its only dependency, from a tarball of the repo's copy),
 * then its example run against a real Gatehouse server listening on a port, and a TypeScript file
 * type-checked against the packed declarations through the exports map.
 */
import { serve } from '@hono/node-server';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) => execFileSync(cmd, args, { cwd, env: childEnv(env), encoding: 'utf8', timeout: 120_000 });
/** Without blocking this process's event loop, which serves the Gatehouse server the child calls. */
const runAsync = async (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) => (await promisify(execFile)(cmd, args, { cwd, env: childEnv(env), encoding: 'utf8', timeout: 60_000 })).stdout;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describeDialects('@gatehouse/node packed and installed into a scratch app', (harness) => {
  it('installs from its tarball offline, runs its node:http example against a real server, and type-checks through its exports map', async () => {
    run('npm', ['run', 'build'], pkgDir);
    run('npm', ['pack', '--pack-destination', scratch], pkgDir);
    run('npm', ['pack', path.join(repo, 'node_modules/jose'), '--pack-destination', scratch], scratch);
    const tarballs = readdirSync(scratch).filter((f) => f.endsWith('.tgz'));
    const own = tarballs.find((f) => f.startsWith('gatehouse-node-'))!;
    const jose = tarballs.find((f) => f.startsWith('jose-'))!;
    const app = path.join(scratch, 'app');
    run('mkdir', ['-p', app], scratch);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'scratch-host', private: true, type: 'module' }));
    run('npm', ['install', `../${own}`, `../${jose}`], app);
    // Only the package's files: built output, examples and docs, no source or tests.
    const packed = run('tar', ['-tzf', path.join(scratch, own)], scratch).split('\n').filter(Boolean);
    expect(packed).toContain('package/dist/index.js');
    expect(packed).toContain('package/dist/index.d.ts');
    expect(packed.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.startsWith('package/examples/'))).toEqual([]);
    expect(packed.filter((f) => f.includes('.test.'))).toEqual([]);

    const port = await freePort();
    const server = await harness.start({ GATEHOUSE_PUBLIC_URL: `http://127.0.0.1:${port}`, GATEHOUSE_ALLOWED_ORIGINS: `http://127.0.0.1:${port}` });
    const listener = serve({ fetch: server.fetch, port, hostname: '127.0.0.1' });
    try {
      const admin = await tenantWithAdmin(server);
      const example = path.join(app, 'node_modules/@gatehouse/node/examples/http-server.mjs');
      copyFileSync(example, path.join(app, 'example.mjs'));
      const out = await runAsync('node', ['example.mjs'], app, { GATEHOUSE_BASE_URL: server.config.publicUrl, GATEHOUSE_CLIENT_ID: server.config.clientId, ACCESS_TOKEN: admin.accessToken, NODE_PATH: '' });
      expect(JSON.parse(out)).toEqual({ sub: admin.userId, anonymous: [401, { errors: [expect.any(String)], errorCode: 'ER-01004' }], signedIn: [200, { hello: admin.userId }] });
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }

    copyFileSync(path.join(app, 'node_modules/@gatehouse/node/examples/typed.ts'), path.join(app, 'typed.ts'));
    const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
    run('node', [tsc, '--noEmit', '--strict', '--skipLibCheck', 'false', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', '--typeRoots', path.join(repo, 'node_modules/@types'), 'typed.ts'], app);
  }, 240_000);
});
