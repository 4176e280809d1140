// @vitest-environment node
/**
 * The package as users get it: built (ESM + .d.ts), packed with `npm pack`, installed from the
 * tarball into a scratch app offline (React and its dependencies from tarballs of the repo's
 * copies), its server-rendering example run with node, and its typed example type-checked against
 * the packed declarations through the exports map.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';

const pkgDir = path.resolve(import.meta.dirname, '..');
const repo = path.resolve(pkgDir, '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'gatehouse-react-pack-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
  } catch (error) {
    // The command's own words (tsc's diagnostics) in the failure, not just its exit status.
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}
/** React 18 and its types with their dependencies: what a host app already has. */
const PEERS = ['react', 'react-dom', 'scheduler', 'loose-envify', 'js-tokens', '@types/react', '@types/prop-types', 'csstype'];

it('installs from its tarball offline, renders its server example signed out, and type-checks through its exports map', () => {
  run('npm', ['run', 'build'], pkgDir);
  // One npm for the package's tarball and its peers': npm pack takes several folders and packs each
  // as on its own (the package's tarball is byte for byte the one `npm pack` makes in its folder).
  run('npm', ['pack', pkgDir, ...PEERS.map((peer) => path.join(repo, 'node_modules', peer)), '--pack-destination', scratch], scratch);
  const tarballs = readdirSync(scratch).filter((f) => f.endsWith('.tgz'));
  expect(tarballs).toHaveLength(1 + PEERS.length);
  const own = tarballs.find((f) => f.startsWith('gatehouse-react-'))!;
  const packed = run('tar', ['-tzf', path.join(scratch, own)], scratch).split('\n').filter(Boolean);
  expect(packed).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts', 'package/README.md', 'package/CHANGELOG.md', 'package/examples/server-render.mjs']));
  expect(packed.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  expect(packed.filter((f) => f.includes('.test.') || f.includes('/src/'))).toEqual([]);

  const app = path.join(scratch, 'app');
  mkdirSync(app);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'scratch-host', private: true, type: 'module' }));
  run('npm', ['install', ...tarballs.map((t) => `../${t}`)], app);

  copyFileSync(path.join(app, 'node_modules/@gatehouse/react/examples/server-render.mjs'), path.join(app, 'server-render.mjs'));
  expect(run('node', ['server-render.mjs'], app).trim()).toBe('<p>loading</p><i>no access</i>');

  copyFileSync(path.join(app, 'node_modules/@gatehouse/react/examples/typed.tsx'), path.join(app, 'typed.tsx'));
  const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
  run('node', [tsc, '--noEmit', '--strict', '--jsx', 'react-jsx', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--lib', 'es2022,dom', '--types', 'react', 'typed.tsx'], app);
}, 240_000);
