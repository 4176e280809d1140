import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as shared from './index';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'wire' || name === 'testing' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('public surface', () => {
  it('exports the core entry points', () => {
    for (const name of ['createApiClient', 'createGatehouseStore', 'createGatehouse', 'defaultRoutes', 'getValidRedirectUrl', 'isGatehouseError', 'themeToCssVariables', 'isFlagOn', 'AFTER_AUTH_REDIRECT_KEY']) {
      expect(shared).toHaveProperty(name);
    }
  });

  it('never imports React, or zod / the wire index at runtime', () => {
    for (const file of sources(import.meta.dirname)) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/from ['"]react/);
      expect(text, file).not.toMatch(/from ['"]zod['"]/);
      // Only `import type` / `export type` may name '../wire' (its index pulls zod in).
      for (const line of text.split('\n').filter((l) => /from ['"](\.\.?\/)+wire['"]/.test(l))) {
        expect(line, file).toMatch(/^(import|export) type /);
      }
    }
  });
});
