/** The Reports section's calls (issue 16; seed 001 sections 3, 7 "Reports"), through the portal's API client. */
import { AdminPaths, encodeDataFilters, ReportPaths, type ReportDownloadType, type ReportResponseType, type ReportSchedule, type ReportTemplateId } from '@gatehouse/shared/admin-paths';
import type { ReportTemplate, ReportTrigger, Role, TenantReport } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

export interface ReportInput {
  id?: string;
  templateId: ReportTemplateId;
  name: string;
  dataFilters: Record<string, unknown>;
}

export interface TriggerInput {
  id?: string;
  reportId: string;
  schedule: ReportSchedule;
  recipients: string[];
  enabled: boolean;
}

const withId = (template: string, id: string) => template.replace('{id}', encodeURIComponent(id));

export function createReportsApi(api: GatehouseApi) {
  return {
    templates: () => api.request<ReportTemplate[]>('GET', ReportPaths.templates),
    reports: () => api.request<TenantReport[]>('GET', ReportPaths.tenantReports),
    triggers: () => api.request<ReportTrigger[]>('GET', ReportPaths.reportTriggers),
    /** The tenant's roles for the roles filter; null when the admin may not read them (the filter is then not offered). */
    roles: () => api.request<Role[]>('GET', AdminPaths.rolesV1).catch(() => null),
    /** Saves: updates when `id` is given, otherwise creates (seed 001 section 5). */
    saveReport: (input: ReportInput) => api.request<TenantReport>('POST', ReportPaths.tenantReports, { body: input }),
    removeReport: (id: string) => api.request<void>('DELETE', withId(ReportPaths.tenantReport, id)),
    /** The report rendered now as HTML, titled `name` (shown in a sandboxed frame). */
    previewHtml: (templateId: ReportTemplateId, dataFilters: Record<string, unknown>, name: string) =>
      api.request<string>('GET', ReportPaths.previewReport, { query: { templateId, dataFilters: encodeDataFilters(dataFilters), responseType: 'html' satisfies ReportResponseType, name }, responseType: 'text' }),
    download: (id: string, type: ReportDownloadType) => api.request<Blob>('GET', withId(ReportPaths.tenantReportDownload, id), { query: { type }, responseType: 'blob' }),
    saveTrigger: (input: TriggerInput) => api.request<ReportTrigger>('POST', ReportPaths.reportTriggers, { body: input }),
    removeTrigger: (id: string) => api.request<void>('DELETE', withId(ReportPaths.reportTrigger, id)),
  };
}

export type ReportsApi = ReturnType<typeof createReportsApi>;
