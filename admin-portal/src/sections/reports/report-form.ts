/**
 * The report form's values and their checks, without React: a filter's field holds text (dates,
 * numbers), 'any'/'true'/'false' (booleans), an option or '' (selects), or role ids. They become
 * dataFilters for the server, checked first with the server's own rules (checkReportFilters).
 */
import { checkReportFilters, REPORT_TEMPLATE_FILTERS, type ReportFilterDefinition, type ReportTemplateId } from '@gatehouse/shared/admin-paths';

export type FilterValue = string | string[];
export type FilterValues = Record<string, FilterValue>;
/** What is wrong with a field, as a message key of the reports catalog and its values. */
export interface FieldProblem { key: string; values?: Record<string, string | number> }

/** The form's values of saved dataFilters (or empty ones). */
export function formValuesOf(templateId: ReportTemplateId, dataFilters: Record<string, unknown>): FilterValues {
  const values: FilterValues = {};
  for (const def of REPORT_TEMPLATE_FILTERS[templateId]) {
    const v = dataFilters[def.key];
    if (def.type === 'roles') values[def.key] = Array.isArray(v) ? v.filter((id): id is string => typeof id === 'string') : [];
    else if (def.type === 'boolean') values[def.key] = v === true ? 'true' : v === false ? 'false' : 'any';
    else values[def.key] = v === undefined || v === null ? '' : String(v);
  }
  return values;
}

/** The dataFilters of the form's values: only the filters set. A number field's text that is not a number stays text, so the check names it. */
export function dataFiltersOf(templateId: ReportTemplateId, values: FilterValues): Record<string, unknown> {
  const filters: Record<string, unknown> = {};
  for (const def of REPORT_TEMPLATE_FILTERS[templateId]) {
    const v = values[def.key];
    if (def.type === 'roles') {
      if (Array.isArray(v) && v.length > 0) filters[def.key] = v;
    } else if (def.type === 'boolean') {
      if (v === 'true' || v === 'false') filters[def.key] = v === 'true';
    } else if (typeof v === 'string' && v.trim() !== '') {
      const text = v.trim();
      filters[def.key] = def.type === 'number' && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    }
  }
  return filters;
}

function problemOf(def: ReportFilterDefinition, message: string): FieldProblem {
  if (def.key === 'to' && message.includes('before')) return { key: 'reports.problem.toBeforeFrom' };
  switch (def.type) {
    case 'date': return { key: 'reports.problem.date' };
    case 'number': return { key: 'reports.problem.number', values: { min: def.min ?? 0, max: def.max ?? 0 } };
    case 'boolean': return { key: 'reports.problem.boolean' };
    case 'select': return { key: 'reports.problem.select' };
    case 'roles': return { key: 'reports.problem.roles' };
  }
}

/** The problems of the form's filters by filter key (none: the filters are valid). */
export function filterProblems(templateId: ReportTemplateId, values: FilterValues): Record<string, FieldProblem> {
  const check = checkReportFilters(templateId, dataFiltersOf(templateId, values));
  if (check.ok) return {};
  const problems: Record<string, FieldProblem> = {};
  for (const error of check.errors) {
    const key = error.field.replace(/^dataFilters\./, '');
    const def = REPORT_TEMPLATE_FILTERS[templateId].find((d) => d.key === key);
    if (def && !problems[key]) problems[key] = problemOf(def, error.message);
  }
  return problems;
}

/** Recipients as typed (one per line, or separated by commas or spaces), without blanks and repeats. */
export function recipientsOf(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((r) => r.trim().toLowerCase()).filter(Boolean))];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The first recipient that is not an email address, or null when all are. */
export function badRecipient(recipients: readonly string[]): string | null {
  return recipients.find((r) => !EMAIL.test(r) || r.length > 254) ?? null;
}
