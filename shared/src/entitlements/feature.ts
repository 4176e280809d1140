/**
 * Feature entitlement (seed 000 section 6): the direct entitlement (its expiry), then the feature's
 * flag, then the targeting of the plans that grant it; the first that entitles decides. Not
 * entitled: BUNDLE_EXPIRED when the direct entitlement has expired, otherwise MISSING_FEATURE.
 */
import { prepareAttributes } from './attributes';
import { evaluateFlag, evaluatePlanTargeting } from './rules';
import {
  NO_EXPIRATION,
  type CheckAttributes,
  type EntitlementExplanation,
  type EntitlementResult,
  type EntitlementsContext,
  type FeatureEntitlement,
} from './types';

/** Options of a check. `explain`: also say which source decided (EntitlementResult.explanation). `now`: epoch ms (tests). */
export interface CheckOptions {
  explain?: boolean;
  now?: number;
}

const own = <T>(record: Record<string, T> | undefined, key: string): T | undefined =>
  record && typeof record === 'object' && Object.hasOwn(record, key) ? record[key] : undefined;

const when = (time: number): string => new Date(time).toISOString();

/** The result, with its explanation only when asked for. */
export function result(entitled: boolean, justification: EntitlementResult['justification'], why: EntitlementExplanation[], options: CheckOptions): EntitlementResult {
  const out = (entitled ? { isEntitled: true } : { isEntitled: false, justification }) as EntitlementResult;
  if (options.explain) out.explanation = why;
  return out;
}

/** Is the user entitled to this feature (direct, then feature flag, then plan targeting)? */
export function isEntitledToFeature(
  featureKey: string,
  context: EntitlementsContext | null | undefined,
  attributes: CheckAttributes = {},
  options: CheckOptions = {},
): EntitlementResult {
  const feature: FeatureEntitlement | undefined = featureKey ? own(context?.features, featureKey) : undefined;
  if (!feature || typeof feature !== 'object') {
    return result(false, 'MISSING_FEATURE', [{ source: 'none', featureKey, reason: `No plan, grant or flag gives the feature "${featureKey}".` }], options);
  }
  const now = options.now ?? Date.now();
  const why: EntitlementExplanation[] = [];
  const expiry = feature.expireTime;
  // Only a number is an expiry: null, a missing value or anything else is "not entitled".
  const expired = typeof expiry === 'number' && !Number.isNaN(expiry) && expiry !== NO_EXPIRATION && expiry < now;
  if (typeof expiry === 'number' && !Number.isNaN(expiry) && !expired) {
    const reason = expiry === NO_EXPIRATION ? 'Granted by a plan or a grant, with no expiry.' : `Granted by a plan or a grant until ${when(expiry)}.`;
    return result(true, undefined, [{ source: 'direct', featureKey, reason }], options);
  }
  if (expired) why.push({ source: 'direct', featureKey, reason: `Its plan or grant expired at ${when(expiry)}.` });

  let prepared: Record<string, unknown> | undefined;
  const flag = feature.featureFlag;
  if (flag && typeof flag === 'object') {
    prepared = prepareAttributes(attributes);
    const { treatment, ruleIndex } = evaluateFlag(flag, prepared);
    const decided = flag.on !== true ? 'it is off' : ruleIndex === undefined ? 'no rule matched, so its default applied' : `rule ${ruleIndex + 1} matched`;
    const entry: EntitlementExplanation = { source: 'feature-flag', featureKey, flagKey: flag.key, ruleIndex, reason: `Feature flag${flag.key ? ` ${flag.key}` : ''} answered ${treatment}: ${decided}.` };
    if (treatment === 'true') return result(true, undefined, [entry], options);
    why.push(entry);
  }

  for (const planId of Array.isArray(feature.planIds) ? feature.planIds : []) {
    const plan = own(context?.plans, planId);
    if (!plan || typeof plan !== 'object') continue;
    prepared ??= prepareAttributes(attributes);
    const { treatment, ruleIndex } = evaluatePlanTargeting(plan, prepared);
    const decided = ruleIndex === undefined ? 'no rule matched, so its default applied' : `rule ${ruleIndex + 1} matched`;
    const entry: EntitlementExplanation = { source: 'plan-targeting', featureKey, planId, ruleIndex, reason: `Plan ${planId} targeting answered ${treatment}: ${decided}.` };
    if (treatment === 'true') return result(true, undefined, [entry], options);
    why.push(entry);
  }

  if (!why.length) why.push({ source: 'none', featureKey, reason: `The feature "${featureKey}" is listed, but not entitled: no expiry, flag or plan targeting gives it.` });
  return result(false, expired ? 'BUNDLE_EXPIRED' : 'MISSING_FEATURE', why, options);
}
