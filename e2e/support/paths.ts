import { resolve } from 'node:path';

/** The repository's root folder. */
export const repoRoot = resolve(import.meta.dirname, '../..');
