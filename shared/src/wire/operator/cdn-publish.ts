/**
 * Publishing a CDN version over the API (issue 18, OperatorPaths.cdnPublish): its caps and checks,
 * zod-free, so the admin portal (through `@gatehouse/shared/admin-paths`) checks a picked folder by the
 * server's own rules without loading the schemas.
 */
/** Publish over the API (OperatorPaths.cdnPublish): at most this many files in one version folder. */
export const CDN_PUBLISH_MAX_FILES = 2000;
/** ... and at most this many bytes, decoded, all files together (a full build's admin-portal version is about 3 MB). */
export const CDN_PUBLISH_MAX_BYTES = 20 * 1024 * 1024;
/** The longest file name (path in the version folder) the publish route takes. */
export const CDN_PUBLISH_MAX_PATH = 1100;
/**
 * The body limit of that one route: the files in base64 (4/3), every name at its longest with the
 * JSON around it (quotes, colon, comma), and room for the rest of the object.
 */
export const CDN_PUBLISH_MAX_BODY_BYTES = Math.ceil(CDN_PUBLISH_MAX_BYTES / 3) * 4 + CDN_PUBLISH_MAX_FILES * (CDN_PUBLISH_MAX_PATH + 8) + 64 * 1024;
/**
 * A path inside the version folder: `/`-separated segments of letters, digits, `.`, `_` and `-`, none
 * starting with a dot (so no `..`, no hidden file), no empty segment (no absolute path), at most 8 deep.
 */
export const CDN_PUBLISH_PATH = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}(\/[A-Za-z0-9_][A-Za-z0-9._-]{0,127}){0,7}$/;
/**
 * Strict base64 (padded, no line breaks). Not one regular expression: a repeated group over a
 * file-sized string overflows V8's backtracking stack (a 500 instead of a 400).
 */
export function isBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return !/[^A-Za-z0-9+/]/.test(text.slice(0, text.length - pad));
}

/** Decoded size of a strict base64 string. */
export const base64Bytes = (text: string) => (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);

