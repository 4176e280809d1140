/**
 * Reports' wire schemas (issue 16; seed 001 sections 1, 3, 7): templates, the tenant's saved
 * reports, preview and download, and report triggers. Paths, filters and their validation are
 * zod-free in report-paths.ts.
 */
import { z } from 'zod';
import { REPORT_DOWNLOAD_TYPES, REPORT_LIMITS, REPORT_RESPONSE_TYPES, REPORT_SCHEDULES, REPORT_TEMPLATE_IDS } from './report-paths';

export const ReportTemplateIdSchema = z.enum(REPORT_TEMPLATE_IDS);

export const ReportFilterDefinitionSchema = z.object({
  key: z.string(),
  type: z.enum(['date', 'number', 'boolean', 'select', 'roles']),
  required: z.boolean(),
  min: z.number().optional(),
  max: z.number().optional(),
  options: z.array(z.string()).optional(),
});

export const ReportTemplate = z.object({
  id: ReportTemplateIdSchema,
  name: z.string(),
  description: z.string(),
  dataFilters: z.array(ReportFilterDefinitionSchema),
});
export const ReportTemplateList = z.array(ReportTemplate);
export type ReportTemplate = z.infer<typeof ReportTemplate>;

/** The filters as the client sends them; checkReportFilters (report-paths.ts) validates them per template. */
export const DataFilters = z.record(z.string(), z.unknown());

export const TenantReport = z.object({
  id: z.string(),
  templateId: ReportTemplateIdSchema,
  name: z.string(),
  dataFilters: DataFilters,
  createdAt: z.number(),
  updatedAt: z.number(),
});
export const TenantReportList = z.array(TenantReport);
export type TenantReport = z.infer<typeof TenantReport>;

export const SaveTenantReportRequest = z.object({
  id: z.string().min(1).max(64).optional(),
  templateId: ReportTemplateIdSchema,
  name: z.string().trim().min(1).max(REPORT_LIMITS.nameLength),
  dataFilters: DataFilters.default({}),
});
export type SaveTenantReportRequest = z.infer<typeof SaveTenantReportRequest>;

export const PreviewReportQuery = z.object({
  templateId: ReportTemplateIdSchema,
  /** base64url JSON of the filters (encodeDataFilters); absent: none. */
  dataFilters: z.string().max(REPORT_LIMITS.encodedFilters).optional(),
  responseType: z.enum(REPORT_RESPONSE_TYPES).default('html'),
  /** The report's title (seed: "Reports: ... name"): a saved report's name; absent, the template's name. */
  name: z.string().trim().min(1).max(REPORT_LIMITS.nameLength).optional(),
});

export const DownloadReportQuery = z.object({
  type: z.enum(REPORT_DOWNLOAD_TYPES).default('pdf'),
});

export const ReportTrigger = z.object({
  id: z.string(),
  reportId: z.string(),
  schedule: z.enum(REPORT_SCHEDULES),
  recipients: z.array(z.string()),
  enabled: z.boolean(),
  /** When it next runs (epoch ms), null when disabled. */
  nextRunAt: z.number().nullable(),
  lastRunAt: z.number().nullable(),
  /** Why a run turned it off (its creator no longer holds the report's permissions), else null. */
  disabledReason: z.string().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export const ReportTriggerList = z.array(ReportTrigger);
export type ReportTrigger = z.infer<typeof ReportTrigger>;

export const SaveReportTriggerRequest = z.object({
  id: z.string().min(1).max(64).optional(),
  reportId: z.string().min(1).max(64),
  schedule: z.enum(REPORT_SCHEDULES),
  recipients: z.array(z.string().trim().toLowerCase().max(254).email()).min(1).max(REPORT_LIMITS.recipientsPerTrigger),
  enabled: z.boolean().default(true),
});
export type SaveReportTriggerRequest = z.infer<typeof SaveReportTriggerRequest>;
