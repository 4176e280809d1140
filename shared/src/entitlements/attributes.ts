/**
 * The attribute record rules read (seed 000 section 6): custom attributes as given, `jwt.<path>`
 * for every token claim (nested objects flattened with dots; arrays kept whole and also by index),
 * and `frontegg.email`, `frontegg.emailVerified`, `frontegg.tenantId`, `frontegg.userId` read from
 * the claims. A custom attribute cannot pose as a claim: names under `jwt.` or `frontegg.` are
 * dropped from the custom ones.
 */
import type { CheckAttributes } from './types';

const MAX_DEPTH = 8;
const RESERVED = /^(jwt|frontegg)\./;

const isContainer = (value: unknown): value is object => {
  const tag = Object.prototype.toString.call(value);
  return tag === '[object Object]' || tag === '[object Array]';
};

function flatten(value: object, prefix: string, out: Record<string, unknown>, depth: number): void {
  for (const [key, item] of Object.entries(value)) {
    const name = `${prefix}.${key}`;
    // Arrays stay readable whole (in_list over roles), as well as item by item.
    if (!isContainer(item) || Array.isArray(item) || !Object.keys(item).length || depth >= MAX_DEPTH) out[name] = item;
    if (isContainer(item) && depth < MAX_DEPTH) flatten(item, name, out, depth + 1);
  }
}

/** Builds the prepared attributes of a check (a record without prototype: `__proto__` is a plain name). */
export function prepareAttributes(attributes: CheckAttributes = {}): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(attributes.custom ?? {})) if (!RESERVED.test(name)) out[name] = value;
  const jwt = isContainer(attributes.jwt) ? (attributes.jwt as Record<string, unknown>) : {};
  const own = (name: string): unknown => (Object.hasOwn(jwt, name) ? jwt[name] : undefined);
  const claims: Record<string, unknown> = {
    email: own('email'),
    emailVerified: own('email_verified'),
    tenantId: own('tenantId'),
    // Gatehouse tokens name the user in `sub`; `id` is the seed's claim name.
    userId: own('sub') ?? own('id'),
  };
  for (const [name, value] of Object.entries(claims)) if (value !== undefined) out[`frontegg.${name}`] = value;
  flatten(jwt, 'jwt', out, 0);
  return out;
}
