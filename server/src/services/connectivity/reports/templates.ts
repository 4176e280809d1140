/**
 * The report templates (issue 16 "Reports": users and MFA coverage, sign-in activity, audit summary
 * by severity, security posture): each names itself, declares its filters (report-paths.ts) and
 * builds its ReportDocument from the tenant's real tables. Lists are bounded: at most the `limit`
 * filter's rows (default 100 or 500, never more than REPORT_LIMITS.maxRows), and the document says
 * when rows were left out.
 */
import {
  ErrorCodes, REPORT_LIMITS, REPORT_TEMPLATE_PERMISSIONS, REPORT_TEMPLATE_FILTERS, REPORT_TEMPLATE_IDS, type InsightsResponse, type RecommendationsResponse, type ReportFilterValues,
  type ReportTemplate, type ReportTemplateId,
} from '@gatehouse/shared/wire';
import type { Db } from '../../../db';
import { auditsForReport, membersForReport, roleNamesOf } from '../../../db/queries/reports';
import { AppError } from '../../../errors';
import { AuditActions } from '../../admin/audit-log';
import { covers } from '../../admin/permissions';
import { reportDay, reportTime, type ReportDocument, type ReportTable } from './document';

const DAY_MS = 86_400_000;
/** The window of activity and audit reports without dates: the last 30 days. */
export const DEFAULT_WINDOW_DAYS = 30;

/** Each template with the permission keys its data needs besides fe.reports.* (REPORT_TEMPLATE_PERMISSIONS says why). */
const TEMPLATES: Record<ReportTemplateId, { name: string; description: string; dataPermissions: readonly string[] }> = {
  'users-mfa': { name: 'Users and MFA coverage', description: "The account's users, how many have a second factor, and who has none yet.", dataPermissions: REPORT_TEMPLATE_PERMISSIONS['users-mfa'] },
  'sign-in-activity': { name: 'Sign-in activity', description: 'Successful and failed sign-ins over a period, newest first.', dataPermissions: REPORT_TEMPLATE_PERMISSIONS['sign-in-activity'] },
  'audit-summary': { name: 'Audit summary', description: 'Audit records over a period counted by severity and action, with the latest records.', dataPermissions: REPORT_TEMPLATE_PERMISSIONS['audit-summary'] },
  'security-posture': { name: 'Security posture', description: "The security center's score, its recommendations and insights.", dataPermissions: REPORT_TEMPLATE_PERMISSIONS['security-posture'] },
};

export function templateName(id: ReportTemplateId): string {
  return TEMPLATES[id].name;
}

/** The permission keys the data of template `id` needs (besides the reports key). */
export function templateDataPermissions(id: ReportTemplateId): readonly string[] {
  return TEMPLATES[id].dataPermissions;
}

/** Who holds keys: an admin caller, or a trigger's creator at run time. */
export interface PermissionHolder {
  superUser: boolean;
  keys: readonly string[];
}

/** The keys of `required` plus template `id`'s data keys that `holder` lacks (none for a super user). */
export function missingTemplateKeys(holder: PermissionHolder, id: ReportTemplateId, required: readonly string[] = []): string[] {
  if (holder.superUser) return [];
  return [...new Set([...required, ...templateDataPermissions(id)])].filter((key) => !covers(holder.keys, key));
}

/** 403 (the admin guard's shape) naming every key the caller lacks to run template `id`. */
export function assertMayRunTemplate(holder: PermissionHolder, id: ReportTemplateId): void {
  const missing = missingTemplateKeys(holder, id);
  if (missing.length > 0) {
    throw new AppError(ErrorCodes.forbidden, 403, `You do not have permission to do this (${missing.join(', ')})`, { permission: missing[0], permissions: missing });
  }
}

/** The templates as GET templates answers them: those whose data `holder` may read. */
export function listTemplates(holder: PermissionHolder): ReportTemplate[] {
  return REPORT_TEMPLATE_IDS.filter((id) => missingTemplateKeys(holder, id).length === 0).map((id) => {
    const { name, description } = TEMPLATES[id];
    return { id, name, description, dataFilters: REPORT_TEMPLATE_FILTERS[id].map(({ options, ...d }) => ({ ...d, ...(options ? { options: [...options] } : {}) })) };
  });
}

/** What a template's data needs besides the database: the security center's read side. */
export interface ReportSources {
  db: Db;
  posture: { recommendations(tenantId: string): Promise<RecommendationsResponse>; insights(tenantId: string): Promise<InsightsResponse> };
}

type Body = Pick<ReportDocument, 'filters' | 'summary' | 'tables'>;

const number = (n: number) => n.toLocaleString('en-US');
const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${Math.round((part / whole) * 1000) / 10}%`);
const cappedNote = (shown: number, total: number, what: string) => (shown < total ? `The first ${number(shown)} of ${number(total)} ${what} are shown.` : undefined);

function windowOf(f: ReportFilterValues, now: number): { from: number; to: number } {
  const to = typeof f.to === 'number' ? f.to : now;
  const from = typeof f.from === 'number' ? f.from : to - DEFAULT_WINDOW_DAYS * DAY_MS;
  return { from, to };
}

const limitOf = (f: ReportFilterValues, fallback: number) => Math.min(typeof f.limit === 'number' ? f.limit : fallback, REPORT_LIMITS.maxRows);

async function usersMfa(src: ReportSources, tenantId: string, f: ReportFilterValues): Promise<Body> {
  const roleIds = Array.isArray(f.roleIds) ? f.roleIds : undefined;
  const limit = limitOf(f, REPORT_LIMITS.maxRows);
  const data = await membersForReport(src.db, tenantId, {
    ...(typeof f.from === 'number' ? { createdFrom: f.from } : {}),
    ...(typeof f.to === 'number' ? { createdTo: f.to } : {}),
    ...(roleIds ? { roleIds } : {}),
    ...(typeof f.mfaEnrolled === 'boolean' ? { mfaEnrolled: f.mfaEnrolled } : {}),
  }, limit);
  const filters: Body['filters'] = [];
  if (typeof f.from === 'number') filters.push({ label: 'Joined from', value: reportDay(f.from) });
  if (typeof f.to === 'number') filters.push({ label: 'Joined until', value: reportDay(f.to) });
  if (roleIds) {
    // Only the tenant's own roles are named; an id of another tenant's role matches nobody here.
    const roles = await roleNamesOf(src.db, tenantId, roleIds);
    filters.push({ label: 'Roles', value: roles.length ? roles.map((r) => r.name).join(', ') : 'none of this account' });
  }
  if (typeof f.mfaEnrolled === 'boolean') filters.push({ label: 'MFA', value: f.mfaEnrolled ? 'enrolled only' : 'not enrolled only' });
  const table: ReportTable = {
    heading: 'Users',
    columns: ['Name', 'Email', 'Member since', 'MFA', 'Last active', 'State'],
    rows: data.rows.map((r) => [
      r.name,
      r.email ?? '—',
      reportDay(r.created_at),
      r.mfa_enrolled ? 'Enrolled' : 'Not enrolled',
      reportTime(r.active_at),
      r.disabled_at !== null && r.disabled_at !== undefined ? 'Disabled' : r.locked ? 'Locked' : 'Active',
    ]),
    empty: 'No user matches these filters.',
    ...(cappedNote(data.rows.length, data.total, 'users') ? { note: cappedNote(data.rows.length, data.total, 'users') } : {}),
  };
  return {
    filters,
    summary: [
      { label: 'Users', value: number(data.total) },
      { label: 'MFA enrolled', value: number(data.mfaEnrolled) },
      { label: 'Not enrolled', value: number(data.total - data.mfaEnrolled) },
      { label: 'MFA coverage', value: percent(data.mfaEnrolled, data.total) },
    ],
    tables: [table],
  };
}

async function signInActivity(src: ReportSources, tenantId: string, f: ReportFilterValues, now: number): Promise<Body> {
  const { from, to } = windowOf(f, now);
  const includeFailed = f.includeFailed !== false;
  const limit = limitOf(f, 100);
  const actions = includeFailed ? [AuditActions.signedIn, AuditActions.signInFailed] : [AuditActions.signedIn];
  const data = await auditsForReport(src.db, tenantId, { from, to, actions }, limit);
  const ok = data.groups.filter((g) => g.action === AuditActions.signedIn).reduce((n, g) => n + g.n, 0);
  const failed = data.groups.filter((g) => g.action === AuditActions.signInFailed).reduce((n, g) => n + g.n, 0);
  const summary = [{ label: 'Successful sign-ins', value: number(ok) }];
  if (includeFailed) summary.push({ label: 'Failed sign-ins', value: number(failed) }, { label: 'Failure rate', value: percent(failed, ok + failed) });
  return {
    filters: [{ label: 'From', value: reportTime(from) }, { label: 'Until', value: reportTime(to) }, { label: 'Failed sign-ins', value: includeFailed ? 'included' : 'left out' }],
    summary,
    tables: [{
      heading: 'Sign-ins',
      columns: ['Time', 'Email', 'Result', 'IP address', 'Details'],
      rows: data.rows.map((r) => [reportTime(r.created_at), r.email ?? '—', r.action === AuditActions.signedIn ? 'Signed in' : 'Failed', r.ip ?? '—', r.description]),
      empty: 'No sign-in in this period.',
      ...(cappedNote(data.rows.length, ok + (includeFailed ? failed : 0), 'sign-ins') ? { note: cappedNote(data.rows.length, ok + (includeFailed ? failed : 0), 'sign-ins') } : {}),
    }],
  };
}

async function auditSummary(src: ReportSources, tenantId: string, f: ReportFilterValues, now: number): Promise<Body> {
  const { from, to } = windowOf(f, now);
  const severity = typeof f.severity === 'string' ? f.severity : undefined;
  const limit = limitOf(f, 100);
  const data = await auditsForReport(src.db, tenantId, { from, to, ...(severity ? { severity } : {}) }, limit);
  const bySeverity = new Map<string, number>();
  for (const g of data.groups) bySeverity.set(g.severity, (bySeverity.get(g.severity) ?? 0) + g.n);
  const total = data.groups.reduce((n, g) => n + g.n, 0);
  const severities = [...bySeverity.keys()].sort((a, b) => (a === 'High' ? -1 : b === 'High' ? 1 : a.localeCompare(b)));
  const byAction = [...data.groups].sort((a, b) => b.n - a.n || a.action.localeCompare(b.action));
  const filters = [{ label: 'From', value: reportTime(from) }, { label: 'Until', value: reportTime(to) }];
  if (severity) filters.push({ label: 'Severity', value: severity });
  return {
    filters,
    summary: [{ label: 'Audit records', value: number(total) }, ...severities.map((s) => ({ label: `Severity ${s}`, value: number(bySeverity.get(s) ?? 0) }))],
    tables: [
      { heading: 'By action', columns: ['Action', 'Severity', 'Records'], rows: byAction.map((g) => [g.action, g.severity, number(g.n)]), empty: 'No audit record in this period.' },
      {
        heading: 'Latest records',
        columns: ['Time', 'Email', 'Action', 'Severity', 'Description'],
        rows: data.rows.map((r) => [reportTime(r.created_at), r.email ?? '—', r.action, r.severity, r.description]),
        empty: 'No audit record in this period.',
        ...(cappedNote(data.rows.length, total, 'records') ? { note: cappedNote(data.rows.length, total, 'records') } : {}),
      },
    ],
  };
}

async function securityPosture(src: ReportSources, tenantId: string, f: ReportFilterValues): Promise<Body> {
  const includeInsights = f.includeInsights !== false;
  const [rec, ins] = await Promise.all([src.posture.recommendations(tenantId), includeInsights ? src.posture.insights(tenantId) : Promise.resolve(null)]);
  const tables: ReportTable[] = [{
    heading: 'Recommendations',
    columns: ['Severity', 'Category', 'Recommendation', 'Points'],
    rows: rec.recommendations.map((r) => [r.severity, r.category, r.description + (r.affectedUsers !== undefined ? ` (${number(r.affectedUsers)} users)` : ''), `+${r.points}`]),
    empty: 'Nothing to recommend: every check passes.',
  }];
  if (ins) {
    tables.push({
      heading: 'Insights',
      columns: ['Category', 'Insight'],
      rows: ins.insights.map((i) => [i.category, i.description]),
      empty: 'No insight.',
    });
  }
  return {
    filters: [{ label: 'Insights', value: includeInsights ? 'included' : 'left out' }],
    summary: [{ label: 'Security score', value: `${rec.score} / 100` }, { label: 'Level', value: rec.level }, { label: 'Recommendations', value: number(rec.recommendations.length) }],
    tables,
  };
}

/** The document of `templateId` with validated filters, for the tenant, at `now`. */
export async function buildReport(
  src: ReportSources,
  input: { tenantId: string; tenantName: string; templateId: ReportTemplateId; title: string | null; filters: ReportFilterValues },
  now: number,
): Promise<ReportDocument> {
  const { tenantId, templateId, filters } = input;
  const body =
    templateId === 'users-mfa' ? await usersMfa(src, tenantId, filters)
    : templateId === 'sign-in-activity' ? await signInActivity(src, tenantId, filters, now)
    : templateId === 'audit-summary' ? await auditSummary(src, tenantId, filters, now)
    : await securityPosture(src, tenantId, filters);
  return { title: input.title ?? templateName(templateId), templateName: templateName(templateId), tenantName: input.tenantName, generatedAt: now, ...body };
}
