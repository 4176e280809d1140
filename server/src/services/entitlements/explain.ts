/**
 * `?explain=true` (issue 13): for each feature, what decided it. The evaluator says which source
 * (direct, feature flag, plan targeting) and rule decided; the server adds what only it knows: the
 * plan or the grant (by id) a direct entitlement came from, and the flag's key.
 */
import { isEntitledToFeature, type CheckAttributes, type EntitlementExplanation } from '@gatehouse/shared/entitlements';
import type { BuiltContext } from './context';

/** One explanation entry as the wire carries it (EntitlementExplanation plus the grant id). */
export type WireExplanation = EntitlementExplanation & { grantId?: string };

export function explainFeatures(built: BuiltContext, attributes: CheckAttributes, now: number): Record<string, WireExplanation[]> {
  const out: Record<string, WireExplanation[]> = {};
  for (const key of Object.keys(built.context.features)) {
    const result = isEntitledToFeature(key, built.context, attributes, { explain: true, now });
    const origin = (Object.hasOwn(built.origins, key) && built.origins[key]) || { kind: 'none' as const };
    const flagKey = Object.hasOwn(built.flagKeys, key) ? built.flagKeys[key] : undefined;
    const entries: WireExplanation[] = (result.explanation ?? []).map((e) => ({ ...e, featureKey: e.featureKey ?? key }));
    if (entries.length === 0) {
      entries.push({ source: result.isEntitled ? 'direct' : 'none', featureKey: key, reason: result.isEntitled ? 'Entitled' : `Not entitled (${result.justification})` });
    }
    out[key] = entries.map((e) => {
      if (e.source === 'direct') {
        if (origin.kind === 'plan') return { ...e, planId: origin.planId, reason: `${e.reason} (granted by the tenant's plan ${origin.planId})` };
        if (origin.kind === 'grant') return { ...e, grantId: origin.grantId, reason: `${e.reason} (granted directly by grant ${origin.grantId})` };
      }
      if (e.source === 'feature-flag' && flagKey) return { ...e, flagKey: e.flagKey ?? flagKey };
      // A BUNDLE_EXPIRED answer still names what expired.
      if (!result.isEntitled && result.justification === 'BUNDLE_EXPIRED' && origin.kind === 'grant') return { ...e, grantId: origin.grantId };
      return e;
    });
  }
  return out;
}
