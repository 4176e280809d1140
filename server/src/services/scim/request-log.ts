/**
 * The SCIM request log (issue 15, "beyond the anchors"): the last 1,000 SCIM requests of each
 * connection, with method, path, status, time and a diff of what changed, so a tenant admin can see
 * why an identity provider's push failed. Never a token, a password or any other secret: the path is
 * stored without its query's values beyond the filter, and diffs drop secret attributes.
 */
import { SCIM_REQUEST_LOG_SIZE, type ScimRequestLogEntry } from '@gatehouse/shared/wire';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { insertScimRequest, listScimRequests, type ScimRequestRow } from '../../db/queries/scim-requests';

/** What changed: attribute -> [before, after]. */
export type ScimDiff = Record<string, [unknown, unknown]>;

export interface ScimRequestRecord {
  connectionId: string;
  method: string;
  path: string;
  status: number;
  startedAt: number;
  finishedAt: number;
  resourceType?: 'User' | 'Group' | null;
  resourceId?: string | null;
  diff?: ScimDiff | null;
  error?: string | null;
}

/** Attributes whose values never reach the log (RFC 7643 `password` is writeOnly; anything token-like neither). */
const SECRET_ATTRIBUTE = /password|secret|token/i;
const MAX_PATH = 512;
const MAX_ERROR = 500;
const MAX_DIFF_CHARS = 8000;

/** The diff of two flat attribute maps (dotted names), secrets masked; null when nothing changed. */
export function diffAttributes(before: Record<string, unknown> | null, after: Record<string, unknown> | null): ScimDiff | null {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const out: ScimDiff = {};
  for (const key of [...keys].sort()) {
    const a = before?.[key] ?? null;
    const b = after?.[key] ?? null;
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    out[key] = SECRET_ATTRIBUTE.test(key) ? ['(hidden)', '(hidden)'] : [a, b];
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** Keeps the path and the filter's shape; any other query value (a token someone put there) is dropped. */
export function loggablePath(url: URL): string {
  const kept = new URLSearchParams();
  for (const name of ['filter', 'startIndex', 'count', 'attributes', 'excludedAttributes']) {
    const v = url.searchParams.get(name);
    if (v !== null) kept.set(name, v);
  }
  const q = kept.toString();
  return `${url.pathname}${q ? `?${q}` : ''}`.slice(0, MAX_PATH);
}

export interface ScimRequestLog {
  record(entry: ScimRequestRecord): Promise<void>;
  page(connectionId: string, offset: number, limit: number): Promise<{ items: ScimRequestLogEntry[]; total: number }>;
}

function toEntry(r: ScimRequestRow): ScimRequestLogEntry {
  return {
    id: r.id,
    method: r.method,
    path: r.path,
    status: r.status,
    createdAt: new Date(Number(r.created_at)).toISOString(),
    durationMs: r.duration_ms,
    resourceType: r.resource_type === 'User' || r.resource_type === 'Group' ? r.resource_type : null,
    resourceId: r.resource_id,
    diff: r.diff ? (JSON.parse(r.diff) as ScimDiff) : null,
    error: r.error,
  };
}

export function createScimRequestLog(deps: { db: Db; keep?: number }): ScimRequestLog {
  const keep = deps.keep ?? SCIM_REQUEST_LOG_SIZE;
  return {
    async record(e) {
      let diff = e.diff ? JSON.stringify(e.diff) : null;
      if (diff && diff.length > MAX_DIFF_CHARS) diff = JSON.stringify({ '(diff)': ['(too large to keep)', `${Object.keys(e.diff!).length} attributes changed`] });
      await insertScimRequest(
        deps.db,
        {
          id: newId(),
          connection_id: e.connectionId,
          method: e.method.slice(0, 10),
          path: e.path.slice(0, MAX_PATH),
          status: e.status,
          created_at: e.startedAt,
          duration_ms: Math.max(0, Math.round(e.finishedAt - e.startedAt)),
          resource_type: e.resourceType ?? null,
          resource_id: e.resourceId ?? null,
          diff,
          error: e.error ? e.error.slice(0, MAX_ERROR) : null,
        },
        keep,
      );
    },
    async page(connectionId, offset, limit) {
      const { rows, total } = await listScimRequests(deps.db, connectionId, offset, limit);
      return { items: rows.map(toEntry), total };
    },
  };
}
