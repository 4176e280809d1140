/**
 * Dates as the date operations read them: a Date, epoch milliseconds, or an ISO-8601 string
 * (`YYYY-MM-DD`, optionally `THH:MM[:SS[.fff]]` and `Z` or `±HH:MM`; no zone means UTC). A date
 * without a time names a whole UTC day.
 */

const DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const MAX_TIME = 8.64e15;

/** A span of time in epoch ms, both ends included: one instant, or a whole UTC day. */
export interface DateSpan {
  from: number;
  to: number;
}

const daysIn = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/** Reads a date; undefined when it is not one (wrong type, invalid or impossible date). */
export function readDate(value: unknown): DateSpan | undefined {
  let time = NaN;
  let whole = false;
  if (value instanceof Date) time = value.getTime();
  else if (typeof value === 'number') time = value;
  else if (typeof value === 'string') {
    const m = ISO_DATE.exec(value);
    const [year, month, day, hour = 0, minute = 0, second = 0] = (m?.slice(1, 7) ?? []).map((part) => (part === undefined ? undefined : +part));
    // V8 accepts 2023-02-30 (as March 2nd): check the day and the clock ourselves.
    if (!m || !year || !month || !day || month > 12 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
    whole = m[4] === undefined;
    // An ISO date-time without a zone is local time to Date.parse: we make it UTC, on every machine.
    time = Date.parse(m[4] !== undefined && !m[7] ? `${value}Z` : value);
  }
  if (!Number.isFinite(time) || Math.abs(time) > MAX_TIME) return undefined;
  return { from: time, to: whole ? time + DAY - 1 : time };
}
