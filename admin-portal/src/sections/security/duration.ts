/**
 * Durations the way an admin thinks of them: the API keeps seconds, the form shows an amount in
 * minutes, hours or days (the largest unit that holds the value exactly).
 */
export const DurationUnits = ['minutes', 'hours', 'days'] as const;
export type DurationUnit = (typeof DurationUnits)[number];

export const UNIT_SECONDS: Readonly<Record<DurationUnit, number>> = { minutes: 60, hours: 3_600, days: 86_400 };

/** What a duration field holds: the typed amount (kept as typed) and its unit. */
export interface DurationDraft {
  amount: string;
  unit: DurationUnit;
}

/** `seconds` in the largest of `units` that divides it exactly (the smallest unit, rounded, when none does). */
export function durationFromSeconds(seconds: number, units: readonly DurationUnit[]): DurationDraft {
  const largestFirst = [...units].sort((a, b) => UNIT_SECONDS[b] - UNIT_SECONDS[a]);
  const exact = largestFirst.find((unit) => seconds % UNIT_SECONDS[unit] === 0);
  const unit = exact ?? largestFirst[largestFirst.length - 1] ?? 'minutes';
  return { amount: String(Math.round(seconds / UNIT_SECONDS[unit])), unit };
}

/** The seconds a draft stands for, or null when its amount is not a whole number. */
export function secondsOf(draft: DurationDraft): number | null {
  const text = draft.amount.trim();
  if (!/^\d+$/.test(text)) return null;
  return Number(text) * UNIT_SECONDS[draft.unit];
}
