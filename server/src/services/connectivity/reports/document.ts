/**
 * A report as the renderers see it: plain strings in titled parts, whatever the template. Every
 * value is text here; each renderer escapes or draws it for its format (html, pdf, svg/jpg).
 */
export interface ReportTable {
  heading: string;
  columns: string[];
  rows: string[][];
  /** Said under the table, e.g. that it shows the first 500 of 2,000 rows. */
  note?: string;
  /** Said instead of an empty table. */
  empty: string;
}

export interface ReportDocument {
  /** The saved report's name, or the template's name for a preview. */
  title: string;
  templateName: string;
  tenantName: string;
  generatedAt: number;
  /** The filters in words ("From: 2026-01-01"). */
  filters: { label: string; value: string }[];
  /** Key figures. */
  summary: { label: string; value: string }[];
  tables: ReportTable[];
}

/** YYYY-MM-DD HH:MM UTC of `ms`, the way every report writes time. */
export function reportTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function reportDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A file name safe in a Content-Disposition header and on every file system: letters, digits, dash. */
export function reportFileName(title: string, generatedAt: number, extension: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .toLowerCase();
  return `${base || 'report'}-${reportDay(generatedAt)}.${extension}`;
}
