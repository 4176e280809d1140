/**
 * ETags of SCIM resources (RFC 7644 section 3.14): weak, `W/"<version>"`, from the resource's version
 * counter, which the store raises on every write. The same value is `meta.version` and the ETag header.
 * If-Match / If-None-Match are compared weakly (RFC 9110 section 8.8.3.2), since both sides are weak.
 */
import { ScimErrors } from './errors';

/** Longest If-Match / If-None-Match header read; longer ones are refused rather than parsed. */
const MAX_HEADER_LENGTH = 4096;

/** The weak ETag of a resource at a version. */
export function etagOf(version: number | string): string {
  return `W/"${String(version).replace(/["\\]/g, '')}"`;
}

/** The opaque part of an entity tag, weak or strong (`W/"3"` and `"3"` both give `3`); null if malformed. */
function opaque(tag: string): string | null {
  const t = tag.trim();
  const body = t.startsWith('W/') ? t.slice(2) : t;
  if (body.length < 2 || !body.startsWith('"') || !body.endsWith('"')) return null;
  const inner = body.slice(1, -1);
  return inner.includes('"') ? null : inner;
}

/** The tags of a conditional header: '*' or the list of opaque values (malformed members skipped). */
function parseTags(header: string): '*' | string[] {
  if (header.length > MAX_HEADER_LENGTH) throw ScimErrors.invalidSyntax('The If-Match / If-None-Match header is too long');
  if (header.trim() === '*') return '*';
  const tags: string[] = [];
  for (const part of header.split(',')) {
    const o = opaque(part);
    if (o !== null) tags.push(o);
  }
  return tags;
}

/**
 * Enforces If-Match before a write (PUT, PATCH, DELETE): absent passes; `*` passes (the resource
 * exists when this is called); otherwise one listed tag must equal the current one, else 412.
 */
export function assertIfMatch(header: string | null | undefined, currentEtag: string): void {
  if (header === null || header === undefined || header === '') return;
  const tags = parseTags(header);
  if (tags === '*') return;
  const current = opaque(currentEtag);
  if (current === null || !tags.includes(current)) throw ScimErrors.preconditionFailed();
}

/**
 * For a GET with If-None-Match: true when the client's copy is current (answer 304 Not Modified,
 * with the ETag and no body).
 */
export function isNotModified(header: string | null | undefined, currentEtag: string): boolean {
  if (header === null || header === undefined || header === '') return false;
  const tags = parseTags(header);
  if (tags === '*') return true;
  const current = opaque(currentEtag);
  return current !== null && tags.includes(current);
}
