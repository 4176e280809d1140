import { useCallback, useMemo } from 'react';
import { REPORT_TEMPLATE_IDS, REPORT_TEMPLATE_PERMISSIONS, type ReportTemplateId } from '@gatehouse/shared/admin-paths';
import type { ReportTrigger, Role, TenantReport } from '@gatehouse/shared/wire';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import { useT } from '../i18n/i18n-context';
import { Toast } from '../toast';
import { actionMode } from './dialogs/action-mode';
import { DeleteDialog } from './dialogs/delete-dialog';
import { useListSection } from './dialogs/list-section';
import { RowMenu, type RowMenuItem } from './dialogs/row-menu';
import { PreviewDialog } from './reports/preview-dialog';
import { ReportDialog } from './reports/report-dialog';
import { createReportsApi } from './reports/reports-api';
import { TriggerDialog } from './reports/trigger-dialog';
import type { SectionProps } from './section-props';
import { TableSkeleton } from './users/users-table';
import css from './users/users.css?inline';
import ownCss from './reports/reports.css?inline';

type Dialog =
  | { kind: 'edit'; report: TenantReport | null; templateId: ReportTemplateId }
  | { kind: 'preview'; title: string; templateId: ReportTemplateId; dataFilters: Record<string, unknown>; saved: { id: string; name: string } | null }
  | { kind: 'deleteReport'; report: TenantReport }
  | { kind: 'trigger'; trigger: ReportTrigger | null; reportId: string }
  | { kind: 'deleteTrigger'; trigger: ReportTrigger; reportName: string };

interface Data {
  reports: TenantReport[];
  triggers: ReportTrigger[];
  roles: Role[] | null;
}

const NO_FILTERS: Record<string, unknown> = {};

/**
 * Reports (issue 16; seed 001 sections 1, 3, 7): the templates (users and MFA coverage, sign-in
 * activity, audit summary, security posture), the tenant's saved reports with their filters, a
 * preview in a sandboxed frame and downloads as HTML, PDF and JPG, and schedules that email a report
 * weekly or monthly. Admins holding fe.reports.write.reports create, edit and delete; the host can
 * hide or show view-only `create`, `edit`, `delete` and `schedule` (`adminPortal.fieldVisibility.reports`).
 */
export default function ReportsSection({ title, headingId, user, api, options }: SectionProps) {
  const t = useT();
  const reportsApi = useMemo(() => createReportsApi(api), [api]);
  const mode = actionMode(options, 'reports', Boolean(user.superUser) || holdsPermission(user, Permissions.reportsWrite));
  const fetchList = useCallback(async (): Promise<Data> => {
    const [reports, triggers, roles] = await Promise.all([reportsApi.reports(), reportsApi.triggers(), reportsApi.roles()]);
    return { reports, triggers, roles };
  }, [reportsApi]);
  const state = useListSection<Data, Dialog>(fetchList, `${css}\n${ownCss}`);
  const { data, loading, error, notice, sectionRef, behindRef, dialog, open, close, finish } = state;
  /** Run times are UTC, as the schedule says (07:00 UTC). */
  const runTime = (ms: number) => `${t.formatDate(ms, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`;
  const reportName = new Map((data?.reports ?? []).map((r) => [r.id, r.name]));
  const templateName = (id: ReportTemplateId) => t.t(`reports.template.${id}.name`);
  // Only the templates whose data the admin may read (the server refuses the others with a 403).
  const templateIds = REPORT_TEMPLATE_IDS.filter((id) => Boolean(user.superUser) || REPORT_TEMPLATE_PERMISSIONS[id].every((key) => holdsPermission(user, key)));
  const canCreate = mode('create');
  const canSchedule = mode('schedule');

  const reportItems = (report: TenantReport): RowMenuItem[] => [
    { key: 'preview', label: t.t('reports.action.preview'), onSelect: () => open({ kind: 'preview', title: report.name, templateId: report.templateId, dataFilters: report.dataFilters, saved: { id: report.id, name: report.name } }) },
    ...(mode('edit') !== 'hidden' ? [{ key: 'edit', label: t.t('reports.action.edit'), disabled: mode('edit') === 'viewOnly', onSelect: () => open({ kind: 'edit', report, templateId: report.templateId }) }] : []),
    ...(canSchedule !== 'hidden' ? [{ key: 'schedule', label: t.t('reports.action.schedule'), disabled: canSchedule === 'viewOnly', onSelect: () => open({ kind: 'trigger', trigger: null, reportId: report.id }) }] : []),
    ...(mode('delete') !== 'hidden' ? [{ key: 'delete', label: t.t('common.delete'), danger: true, disabled: mode('delete') === 'viewOnly', onSelect: () => open({ kind: 'deleteReport', report }) }] : []),
  ];
  const triggerItems = (trigger: ReportTrigger): RowMenuItem[] => [
    ...(canSchedule !== 'hidden' ? [{ key: 'edit', label: t.t('reports.action.editSchedule'), disabled: canSchedule === 'viewOnly', onSelect: () => open({ kind: 'trigger', trigger, reportId: trigger.reportId }) }] : []),
    ...(mode('delete') !== 'hidden' ? [{ key: 'delete', label: t.t('common.delete'), danger: true, disabled: mode('delete') === 'viewOnly', onSelect: () => open({ kind: 'deleteTrigger', trigger, reportName: reportName.get(trigger.reportId) ?? '' }) }] : []),
  ];
  const col = { template: t.t('reports.column.template'), updated: t.t('reports.column.updated'), schedule: t.t('reports.column.schedule'), recipients: t.t('reports.column.recipients'), next: t.t('reports.column.nextRun') };

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div ref={behindRef} className="gh-ap-users">
        <div className="gh-ap-users-head">
          <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
          {canCreate !== 'hidden' && (
            <button type="button" className="gh-ap-button" disabled={canCreate === 'viewOnly' || !data || templateIds.length === 0} onClick={() => open({ kind: 'edit', report: null, templateId: templateIds[0]! })}>{t.t('reports.add')}</button>
          )}
        </div>
        <Toast message={notice} />
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <p className="gh-ap-report-intro">{t.t('reports.intro')}</p>

        <div className="gh-ap-report-block">
          <h3 className="gh-ap-report-heading">{t.t('reports.templates')}</h3>
          <ul className="gh-ap-report-templates">
            {templateIds.map((id) => (
              <li key={id} className="gh-ap-report-template">
                <div>
                  <h4>{templateName(id)}</h4>
                  <p>{t.t(`reports.template.${id}.description`)}</p>
                </div>
                <div className="gh-ap-report-template-actions">
                  <button type="button" className="gh-ap-button-secondary" aria-label={t.t('reports.action.previewNamed', { name: templateName(id) })} onClick={() => open({ kind: 'preview', title: templateName(id), templateId: id, dataFilters: NO_FILTERS, saved: null })}>{t.t('reports.action.preview')}</button>
                  {canCreate !== 'hidden' && (
                    <button type="button" className="gh-ap-button-secondary" aria-label={t.t('reports.action.useNamed', { name: templateName(id) })} disabled={canCreate === 'viewOnly' || !data} onClick={() => open({ kind: 'edit', report: null, templateId: id })}>{t.t('reports.action.use')}</button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </div>

        <div className="gh-ap-report-block">
          <h3 className="gh-ap-report-heading">{t.t('reports.saved')}</h3>
          <div className="gh-ap-table-wrap">
            <table className="gh-ap-table" aria-busy={loading}>
              <caption className="gh-ap-visually-hidden">{t.t('reports.saved')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.t('reports.column.name')}</th>
                  <th scope="col">{col.template}</th>
                  <th scope="col">{col.updated}</th>
                  <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>
                </tr>
              </thead>
              <tbody>
                {data?.reports.map((report) => (
                  <tr key={report.id}>
                    <th scope="row">{report.name}</th>
                    <td data-label={col.template}>{templateName(report.templateId)}</td>
                    <td data-label={col.updated} className="gh-ap-nowrap">{t.formatDate(report.updatedAt)}</td>
                    <td className="gh-ap-cell-actions"><RowMenu label={t.t('reports.actionsFor', { name: report.name })} items={reportItems(report)} /></td>
                  </tr>
                ))}
                {data && data.reports.length === 0 && (
                  <tr><td colSpan={4}><p className="gh-ap-table-empty">{canCreate === 'editable' ? t.t('reports.empty.add') : t.t('reports.empty.none')}</p></td></tr>
                )}
              </tbody>
            </table>
            {loading && !data && <TableSkeleton />}
          </div>
        </div>

        <div className="gh-ap-report-block">
          <div className="gh-ap-report-block-head">
            <h3 className="gh-ap-report-heading">{t.t('reports.schedules')}</h3>
            {canSchedule !== 'hidden' && (
              <button type="button" className="gh-ap-button-secondary" disabled={canSchedule === 'viewOnly' || !data || data.reports.length === 0} onClick={() => data?.reports[0] && open({ kind: 'trigger', trigger: null, reportId: data.reports[0].id })}>{t.t('reports.trigger.add')}</button>
            )}
          </div>
          <div className="gh-ap-table-wrap">
            <table className="gh-ap-table" aria-busy={loading}>
              <caption className="gh-ap-visually-hidden">{t.t('reports.schedules')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.t('reports.trigger.report')}</th>
                  <th scope="col">{col.schedule}</th>
                  <th scope="col">{col.recipients}</th>
                  <th scope="col">{col.next}</th>
                  <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>
                </tr>
              </thead>
              <tbody>
                {data?.triggers.map((trigger) => (
                  <tr key={trigger.id}>
                    <th scope="row">{reportName.get(trigger.reportId) ?? '—'}</th>
                    <td data-label={col.schedule}>{t.t(`reports.schedule.${trigger.schedule}`)}</td>
                    <td data-label={col.recipients}>{trigger.recipients.join(', ')}</td>
                    <td data-label={col.next}>{trigger.enabled && trigger.nextRunAt !== null ? runTime(trigger.nextRunAt) : <span className="gh-ap-report-muted">{t.t('reports.trigger.off')}{trigger.disabledReason ? ` (${trigger.disabledReason})` : ''}</span>}</td>
                    <td className="gh-ap-cell-actions">
                      {triggerItems(trigger).length > 0 && <RowMenu label={t.t('reports.trigger.actionsFor', { name: reportName.get(trigger.reportId) ?? '' })} items={triggerItems(trigger)} />}
                    </td>
                  </tr>
                ))}
                {data && data.triggers.length === 0 && (
                  <tr><td colSpan={5}><p className="gh-ap-table-empty">{t.t('reports.trigger.empty')}</p></td></tr>
                )}
              </tbody>
            </table>
            {loading && !data && <TableSkeleton />}
          </div>
        </div>
      </div>

      {dialog?.kind === 'edit' && data && (
        <ReportDialog
          report={dialog.report}
          initialTemplate={dialog.templateId}
          templateIds={dialog.report && !templateIds.includes(dialog.report.templateId) ? [dialog.report.templateId, ...templateIds] : templateIds}
          roles={data.roles}
          onClose={close}
          save={async (input) => {
            await reportsApi.saveReport(input);
            await finish(t.t(dialog.report ? 'reports.done.saved' : 'reports.done.added', { name: input.name }));
          }}
        />
      )}
      {dialog?.kind === 'preview' && (
        <PreviewDialog title={dialog.title} templateId={dialog.templateId} dataFilters={dialog.dataFilters} saved={dialog.saved} reports={reportsApi} onClose={close} />
      )}
      {dialog?.kind === 'deleteReport' && (
        <DeleteDialog
          title={t.t('reports.delete.title', { name: dialog.report.name })}
          text={t.t('reports.delete.text', { name: dialog.report.name })}
          onClose={close}
          run={async () => {
            await reportsApi.removeReport(dialog.report.id);
            await finish(t.t('reports.done.deleted', { name: dialog.report.name }));
          }}
        />
      )}
      {dialog?.kind === 'trigger' && data && (
        <TriggerDialog
          trigger={dialog.trigger}
          reports={data.reports}
          initialReportId={dialog.reportId}
          onClose={close}
          save={async (input) => {
            await reportsApi.saveTrigger(input);
            await finish(t.t('reports.done.scheduled', { name: reportName.get(input.reportId) ?? '' }));
          }}
        />
      )}
      {dialog?.kind === 'deleteTrigger' && (
        <DeleteDialog
          title={t.t('reports.trigger.deleteTitle', { name: dialog.reportName })}
          text={t.t('reports.trigger.deleteText', { name: dialog.reportName })}
          onClose={close}
          run={async () => {
            await reportsApi.removeTrigger(dialog.trigger.id);
            await finish(t.t('reports.done.unscheduled', { name: dialog.reportName }));
          }}
        />
      )}
    </section>
  );
}
