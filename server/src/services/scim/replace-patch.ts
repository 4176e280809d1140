import type { ScimCaller } from './context';
import { assertIfMatch, etagOf } from './etag';
import type { JsonObject } from './filter-match';
import { normalizeResource, type ResourceBody } from './normalize';
import { applyPatch } from './patch';
import type { ResourceTypeDefinition } from './schemas';

/** What a resource type gives the shared PUT and PATCH: how to load one, show it as SCIM, and write a new version. */
export interface ReplaceAndPatchSpec<R extends { version: number }, Result> {
  resource: ResourceTypeDefinition;
  load(caller: ScimCaller, id: string): Promise<R>;
  toScim(current: R, baseUrl: string): JsonObject;
  /** Writes `next` (normalized) over `current`, checking If-Match again inside its transaction. */
  write(caller: ScimCaller, current: R, next: ResourceBody, ifMatch: string | undefined, kind: 'PUT' | 'PATCH'): Promise<Result>;
  /** The answer when a PATCH changes nothing: nothing is written and the version stays. */
  unchanged(caller: ScimCaller, current: R): Result;
}

/**
 * PUT and PATCH of one SCIM resource (RFC 7644 sections 3.5.1 and 3.5.2), the same for Users and
 * Groups: load it, check If-Match (412), then write the replacement or the patched resource, each
 * normalized as a create would be, so a PATCH can never store what a PUT could not.
 */
export function replaceAndPatch<R extends { version: number }, Result>(spec: ReplaceAndPatchSpec<R, Result>) {
  return {
    async replace(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined): Promise<Result> {
      const current = await spec.load(caller, id);
      assertIfMatch(ifMatch, etagOf(current.version));
      return spec.write(caller, current, normalizeResource(body, spec.resource), ifMatch, 'PUT');
    },
    async patch(caller: ScimCaller, id: string, body: unknown, ifMatch: string | undefined): Promise<Result> {
      const current = await spec.load(caller, id);
      assertIfMatch(ifMatch, etagOf(current.version));
      const patched = applyPatch(spec.toScim(current, caller.baseUrl), body, spec.resource);
      if (!patched.changed) return spec.unchanged(caller, current);
      return spec.write(caller, current, normalizeResource(patched.resource, spec.resource), ifMatch, 'PATCH');
    },
  };
}
