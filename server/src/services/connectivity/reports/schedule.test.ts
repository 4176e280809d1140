import { describe, expect, it } from 'vitest';
import { nextRunAt, REPORT_RUN_HOUR_UTC } from './schedule';

const at = (y: number, m: number, d: number, h = 0, min = 0) => Date.UTC(y, m - 1, d, h, min);

describe('nextRunAt', () => {
  it('weekly: the next Monday at the run hour, strictly after now', () => {
    // 2026-11-27 is a Friday.
    expect(nextRunAt('weekly', at(2026, 11, 27, 12))).toBe(at(2026, 11, 30, REPORT_RUN_HOUR_UTC));
    // A Monday before the hour runs that day; at or after it, the Monday after.
    expect(nextRunAt('weekly', at(2026, 11, 30, 6, 59))).toBe(at(2026, 11, 30, REPORT_RUN_HOUR_UTC));
    expect(nextRunAt('weekly', at(2026, 11, 30, REPORT_RUN_HOUR_UTC))).toBe(at(2026, 12, 7, REPORT_RUN_HOUR_UTC));
    // A Sunday: the next day.
    expect(nextRunAt('weekly', at(2026, 11, 29, 23))).toBe(at(2026, 11, 30, REPORT_RUN_HOUR_UTC));
  });

  it('monthly: the 1st at the run hour, strictly after now, across the year end', () => {
    expect(nextRunAt('monthly', at(2026, 11, 27, 12))).toBe(at(2026, 12, 1, REPORT_RUN_HOUR_UTC));
    expect(nextRunAt('monthly', at(2026, 12, 1, 6))).toBe(at(2026, 12, 1, REPORT_RUN_HOUR_UTC));
    expect(nextRunAt('monthly', at(2026, 12, 1, REPORT_RUN_HOUR_UTC))).toBe(at(2027, 1, 1, REPORT_RUN_HOUR_UTC));
    expect(nextRunAt('monthly', at(2026, 12, 31, 23, 59))).toBe(at(2027, 1, 1, REPORT_RUN_HOUR_UTC));
  });
});
