/** Test double of the security policy endpoints: stored policies per path, dry runs that answer the effects given, and refusals on demand. */
import type { PolicyEffect } from '@gatehouse/shared/wire';
import { recordingApi, type Failure } from './section-harness';

export type Stored = Record<string, Record<string, unknown>>;

/**
 * `stored` answers each GET (a path missing from it fails with 500); a POST/PATCH with
 * `?dryRun=true` answers `effects(path, body)`; a save merges the body in and answers the policy
 * with an id. `failures` fail matching calls (method and path; `dryRun` also matches the dry run).
 */
export function policyApi(stored: Stored, { effects = () => [], failures = [] }: { effects?: (path: string, body: Record<string, unknown>) => PolicyEffect[]; failures?: (Failure & { dryRun?: boolean })[] } = {}) {
  const policies: Stored = structuredClone(stored);
  const { api, calls } = recordingApi((method, path, options) => {
    const dryRun = options.query?.dryRun === 'true';
    const failure = failures.find((f) => f.method === method && f.path === path && (f.dryRun === undefined || f.dryRun === dryRun));
    if (failure) throw Object.assign(new Error(failure.error.message), failure.error);
    if (method === 'GET') {
      const policy = policies[path];
      if (!policy) throw Object.assign(new Error(''), { statusCode: 500 });
      return policy;
    }
    const body = options.body as Record<string, unknown>;
    if (dryRun) return { dryRun: true, policy: body, effects: effects(path, body) };
    policies[path] = { ...policies[path], ...body, id: policies[path]?.id ?? `policy-${Object.keys(policies).length}` };
    return policies[path];
  });
  return { api, calls, policies };
}
