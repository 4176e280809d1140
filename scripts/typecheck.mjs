#!/usr/bin/env node
/** Type-checks every package (tests included) with its own tsconfig; fails on the first error. */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const tsc = join(root, 'node_modules/.bin/tsc');
let failed = false;
for (const pkg of ['shared', 'shared/tsconfig.test.json', 'loader', 'login-box', 'admin-portal', 'server', 'e2e', 'bench']) {
  const run = spawnSync(tsc, ['-p', pkg.endsWith('.json') ? pkg : join(pkg, 'tsconfig.json')], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`typecheck: ${pkg} has type errors`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
