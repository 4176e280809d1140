/**
 * The preview API's building blocks (docs/preview-mode.md): what a handler gets and answers, and the
 * state every area shares (the clock, new ids, the signed-in user, the audit log). Each area of the
 * preview adds its routes from its own file, so no file holds them all.
 */
import type { MeResponse } from '../wire';
import type { TenantUser } from '../wire/admin/users';
import type { Role } from '../wire/admin/roles';

export type Answer = { status: number; body?: unknown; type?: string };
export interface Call { method: string; path: string; query: URLSearchParams; body: Record<string, unknown>; params: Record<string, string> }
export type Handler = (call: Call) => Answer;
/** Method, path template (`{name}` segments captured into `params`), handler. */
export type Route = [string, string, Handler];

export const ok = (body: unknown): Answer => ({ status: 200, body });
export const created = (body: unknown): Answer => ({ status: 201, body });
export const noContent: Answer = { status: 204 };
export const fail = (status: number, message: string): Answer => ({ status, body: { errors: [message] } });

/** What the areas of one preview share: its clock, its id counter, its users, and its audit log. */
export interface PreviewState {
  now(): number;
  /** An id no sample row has: `preview-<kind>-new-<n>`. */
  newId(kind: string): string;
  iso(): string;
  me(): MeResponse;
  users(): TenantUser[];
  /** The account's roles as the visitor left them (created, edited, deleted). */
  roles(): Role[];
  /** Every simulated change is written to the sample audit log, as a real one would be. */
  audit(action: string, description: string): void;
}

/** The `{ id, key, name }` of each of these roles that exists, in the roles' order. */
export const roleSummaries = (state: PreviewState, roleIds: readonly string[]) =>
  state.roles().filter((r) => roleIds.includes(r.id)).map(({ id, key, name }) => ({ id, key, name }));

/** A trimmed string field of the body, or '' when it is missing or not a string. */
export const text = (body: Record<string, unknown>, key: string): string => (typeof body[key] === 'string' ? (body[key] as string).trim() : '');
/** A list of ids in the body (strings only), or [] when it is missing. */
export const ids = (body: Record<string, unknown>, key: string): string[] =>
  Array.isArray(body[key]) ? (body[key] as unknown[]).filter((v): v is string => typeof v === 'string') : [];
