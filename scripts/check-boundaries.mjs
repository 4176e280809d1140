#!/usr/bin/env node
/**
 * Import boundaries (DESIGN.md "Parts"): no React in shared; no server code in browser code; the
 * browser never imports zod at runtime (wire schemas are types there); the loader imports nothing
 * heavy. Reads import specifiers from source; prints every violation.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const walk = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  if (name === 'node_modules' || name === 'dist') return [];
  return statSync(path).isDirectory() ? walk(path) : /\.(tsx?|mjs)$/.test(name) ? [path] : [];
});
const importsOf = (file) => {
  const src = readFileSync(file, 'utf8');
  const out = [];
  for (const m of src.matchAll(/^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
    out.push({ spec: m[3] ?? m[4], typeOnly: Boolean(m[2]) });
  }
  return out;
};
const rules = [
  { dir: 'shared/src', test: (s) => /^react(-dom)?(\/|$)/.test(s), why: 'React in the shared core' },
  { dir: 'shared/src', test: (s) => /server\//.test(s), why: 'server code in the shared core' },
  ...['loader/src', 'login-box/src', 'admin-portal/src', 'checkout/src', 'shared/src'].map((dir) => ({ dir, test: (s) => s.includes('server/src') || s.startsWith('@gatehouse/server'), why: 'server code in browser code' })),
  ...['loader/src', 'login-box/src', 'admin-portal/src', 'checkout/src', 'shared/src/api', 'shared/src/auth'].map((dir) => ({ dir, test: (s, typeOnly) => !typeOnly && (s === 'zod' || /wire(\/index)?$/.test(s)), why: 'zod (or the zod wire index) imported at runtime in browser code' })),
  // @gatehouse/react is published: it may import nothing private (its loader shapes are its own types) and no react-dom (the host's React renders; the loader has its own).
  { dir: 'sdk/react/src', test: (s) => s.startsWith('@gatehouse/') || /(^|\/)(shared|server|loader)\/src/.test(s) || /^react-dom(\/|$)/.test(s), why: 'a private package or react-dom in the published React SDK' },
  // @gatehouse/node is published with jose as its only dependency: its source imports nothing else (node: built-ins aside).
  { dir: 'sdk/node/src', test: (s) => !(s.startsWith('./') || s.startsWith('../') || s.startsWith('node:') || s === 'jose') || /(^|\/)(shared|server|loader)\/src/.test(s), why: 'an undeclared dependency (or a private package) in the published Node SDK' },
  { dir: 'loader/src', test: (s, t, file) => !file.includes('/runtime/') && !t && /^(react|react-dom|jotai|ky|single-spa|@module-federation)/.test(s), why: 'a heavy dependency in the stage-1 loader' },
];
const violations = [];
for (const rule of rules) {
  for (const file of walk(join(root, rule.dir))) {
    if (/\.test\.tsx?$/.test(file) || file.includes('/testing/') || file.includes('test-support') || file.includes('/src/test/')) continue;
    for (const { spec, typeOnly } of importsOf(file)) {
      if (rule.test(spec, typeOnly, file)) violations.push(`${relative(root, file)}: imports '${spec}' (${rule.why})`);
    }
  }
}
if (violations.length) {
  console.error(violations.join('\n'));
  process.exit(1);
}
console.log('import boundaries: ok');
