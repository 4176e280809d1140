/**
 * How configuration values are read (server/src/config.ts): each reader takes a variable from the
 * source, answers its default when unset, and throws a ConfigError that says what to fix.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Thrown at start when the configuration cannot work; the message says what to fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Variables by name: the environment, over the GATEHOUSE_CONFIG file's. */
export type Source = Record<string, string | undefined>;

/** At most `limit` hits per fixed window of `windowSeconds`. */
export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

export function int(src: Source, name: string, def: number, min = 0): number {
  const raw = src[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${raw}".`);
  return n;
}

export function bool(src: Source, name: string, def: boolean): boolean {
  const raw = src[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return def;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${src[name]}".`);
}

export function oneOf<T extends string>(src: Source, name: string, values: readonly T[], def: T, normalise = (s: string) => s): T {
  const raw = src[name];
  if (raw === undefined || raw === '') return def;
  const v = normalise(raw.trim()) as T;
  if (!values.includes(v)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}".`);
  return v;
}

/** Reads `<count>/<seconds>`, e.g. `30/600` for 30 per 10 minutes. */
export function rateLimit(src: Source, name: string, def: string): RateLimitRule {
  const raw = src[name]?.trim() || def;
  const match = /^(\d+)\s*\/\s*(\d+)$/.exec(raw);
  if (!match) throw new ConfigError(`${name} must be <count>/<seconds>, such as "30/600" for 30 per 10 minutes, got "${src[name]}".`);
  const limit = Number(match[1]);
  const windowSeconds = Number(match[2]);
  if (limit < 1 || limit > 1_000_000_000) throw new ConfigError(`${name} must allow between 1 and 1000000000 requests per window, got "${src[name]}".`);
  if (windowSeconds < 1 || windowSeconds > 31 * 86400) throw new ConfigError(`${name} must have a window between 1 second and 31 days, got "${src[name]}".`);
  return { limit, windowSeconds };
}

export function url(name: string, raw: string): URL {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    return u;
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}".`);
  }
}

/** A PEM value given inline or as the path of a file holding it. */
export function pemSetting(src: Source, name: string): string | null {
  const raw = src[name]?.trim();
  if (!raw) return null;
  if (raw.startsWith('-----BEGIN')) return raw;
  try {
    return readFileSync(path.resolve(raw), 'utf8');
  } catch (err) {
    throw new ConfigError(`${name} is neither PEM text nor a readable file (${(err as Error).message}).`);
  }
}
