/**
 * When a report trigger next runs: weekly on Mondays, monthly on the 1st, at REPORT_RUN_HOUR_UTC
 * (UTC), always strictly after `now`. A server that was down past a run time runs once and moves
 * on from now, never catching up run by run.
 */
import type { ReportSchedule } from '@gatehouse/shared/wire';

/** The hour of the day (UTC) report triggers run. */
export const REPORT_RUN_HOUR_UTC = 7;
const DAY_MS = 86_400_000;

export function nextRunAt(schedule: ReportSchedule, now: number): number {
  const d = new Date(now);
  if (schedule === 'weekly') {
    const today = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), REPORT_RUN_HOUR_UTC);
    // getUTCDay: 0 Sunday .. 6 Saturday; days until Monday (0 when today is Monday).
    const untilMonday = (8 - d.getUTCDay()) % 7;
    const candidate = today + untilMonday * DAY_MS;
    return candidate > now ? candidate : candidate + 7 * DAY_MS;
  }
  const thisMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1, REPORT_RUN_HOUR_UTC);
  return thisMonth > now ? thisMonth : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1, REPORT_RUN_HOUR_UTC);
}
