import { describe, expect, it } from 'vitest';
import { checkReportFilters, decodeDataFilters, encodeDataFilters, parseReportDate, REPORT_LIMITS } from './report-paths';

describe('checkReportFilters (seed: date filters need valid dates, numeric need numbers, boolean need a boolean)', () => {
  it('accepts valid filters and gives dates as epoch ms, a date-only `to` covering its whole UTC day', () => {
    const check = checkReportFilters('users-mfa', { from: '2026-01-01', to: '2026-01-31', mfaEnrolled: false, limit: 50, roleIds: ['r1', 'r1', 'r2'] });
    expect(check).toEqual({ ok: true, value: { from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 1, 1) - 1, mfaEnrolled: false, limit: 50, roleIds: ['r1', 'r2'] } });
    expect(checkReportFilters('sign-in-activity', { from: '2026-01-01T10:00:00Z' })).toEqual({ ok: true, value: { from: Date.UTC(2026, 0, 1, 10) } });
  });

  it('refuses a date that is not a real date, naming the field', () => {
    for (const bad of ['2026-02-30', 'yesterday', '2026-1-1', 20260101, true]) {
      expect(checkReportFilters('audit-summary', { from: bad })).toEqual({ ok: false, errors: [{ field: 'dataFilters.from', message: 'from must be a valid date (YYYY-MM-DD)' }] });
    }
  });

  it('refuses a number given as text, a fraction or out of range, and a boolean given as text', () => {
    expect(checkReportFilters('audit-summary', { limit: '10' })).toEqual({ ok: false, errors: [{ field: 'dataFilters.limit', message: 'limit must be a number' }] });
    expect(checkReportFilters('audit-summary', { limit: 1.5 })).toMatchObject({ ok: false, errors: [{ field: 'dataFilters.limit' }] });
    expect(checkReportFilters('audit-summary', { limit: REPORT_LIMITS.maxRows + 1 })).toEqual({ ok: false, errors: [{ field: 'dataFilters.limit', message: `limit must be a whole number from 1 to ${REPORT_LIMITS.maxRows}` }] });
    expect(checkReportFilters('security-posture', { includeInsights: 'true' })).toEqual({ ok: false, errors: [{ field: 'dataFilters.includeInsights', message: 'includeInsights must be a boolean' }] });
  });

  it('refuses unknown keys, a severity not of the list, a to before from, and reports every error at once', () => {
    const check = checkReportFilters('audit-summary', { severity: 'Critical', from: '2026-02-01', to: '2026-01-01', colour: 'red' });
    expect(check.ok).toBe(false);
    expect(check.ok ? [] : check.errors.map((e) => e.field)).toEqual(['dataFilters.colour', 'dataFilters.severity', 'dataFilters.to']);
    expect(checkReportFilters('users-mfa', [])).toEqual({ ok: false, errors: [{ field: 'dataFilters', message: 'dataFilters must be an object' }] });
    expect(checkReportFilters('users-mfa', { roleIds: 'r1' })).toMatchObject({ ok: false, errors: [{ field: 'dataFilters.roleIds' }] });
  });

  it('treats absent, null and empty values as not set', () => {
    expect(checkReportFilters('users-mfa', { from: '', to: null })).toEqual({ ok: true, value: {} });
    expect(checkReportFilters('users-mfa', undefined)).toEqual({ ok: true, value: {} });
  });
});

describe('dataFilters encoding (base64url JSON)', () => {
  it('round-trips any filters, non-ASCII included, with only URL-safe characters', () => {
    const filters = { from: '2026-01-01', roleIds: ['ä', '名'], mfaEnrolled: true, limit: 3 };
    const encoded = encodeDataFilters(filters);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeDataFilters(encoded)).toEqual(filters);
    expect(Buffer.from(encoded, 'base64url').toString('utf8')).toBe(JSON.stringify(filters));
  });

  it('answers null for text that is not base64url JSON of an object', () => {
    expect(decodeDataFilters('not base64!')).toBeNull();
    expect(decodeDataFilters(Buffer.from('[1,2]').toString('base64url'))).toBeNull();
    expect(decodeDataFilters(Buffer.from('{"a":').toString('base64url'))).toBeNull();
    expect(decodeDataFilters(Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url'))).toBeNull();
    expect(decodeDataFilters('A'.repeat(REPORT_LIMITS.encodedFilters + 1))).toBeNull();
  });

  it('parseReportDate refuses dates that roll over', () => {
    expect(parseReportDate('2026-02-28')).toBe(Date.UTC(2026, 1, 28));
    expect(parseReportDate('2026-02-29')).toBeNull();
    expect(parseReportDate('2028-02-29')).toBe(Date.UTC(2028, 1, 29));
  });
});
