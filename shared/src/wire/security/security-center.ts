/**
 * Wire schemas of the security center (issue 12; seed 001 sections 3 "Security center", 7, 9). The
 * score's weighting is documented in docs/security-center.md. Its user tables are the users list
 * with `_preset` (mfa-unenrolled, breached-passwords, inactive) and `_limit=10`.
 */
import { z } from 'zod';
import { InsightCodes, RecommendationCodes, RecommendationSeverities, SecurityCategories, SecurityCenterActions, SecurityLevels } from './paths';

export * from './paths';

export const Recommendation = z.object({
  code: z.enum(RecommendationCodes),
  severity: z.enum(RecommendationSeverities),
  category: z.enum(SecurityCategories),
  /** A sentence for the admin. */
  description: z.string(),
  /** Points the score gains once this is done. */
  points: z.number().int(),
  /** The action that addresses it, when there is one. */
  action: z.enum(SecurityCenterActions).optional(),
  /** How many users it concerns, for user-based recommendations. */
  affectedUsers: z.number().int().optional(),
});
export type Recommendation = z.infer<typeof Recommendation>;

export const RecommendationsResponse = z.object({
  score: z.number().int().min(0).max(100),
  level: z.enum(SecurityLevels),
  recommendations: z.array(Recommendation),
});
export type RecommendationsResponse = z.infer<typeof RecommendationsResponse>;

export const Insight = z.object({
  code: z.enum(InsightCodes),
  category: z.enum(SecurityCategories),
  description: z.string(),
  /** Figures behind it, e.g. { enrolled: 12, total: 52 }. */
  data: z.record(z.string(), z.number()).optional(),
});
export type Insight = z.infer<typeof Insight>;
export const InsightsResponse = z.object({ insights: z.array(Insight) });
export type InsightsResponse = z.infer<typeof InsightsResponse>;

export const ScoreHistoryResponse = z.object({
  /** Oldest first; `day` is YYYY-MM-DD (UTC). */
  points: z.array(z.object({ day: z.string(), score: z.number().int().min(0).max(100) })),
});
export type ScoreHistoryResponse = z.infer<typeof ScoreHistoryResponse>;

export const BreachedPasswordResetResponse = z.object({ emailed: z.number().int() });
export type BreachedPasswordResetResponse = z.infer<typeof BreachedPasswordResetResponse>;
