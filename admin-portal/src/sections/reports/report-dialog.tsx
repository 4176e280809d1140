import { useId, useState, type FormEvent } from 'react';
import { REPORT_LIMITS, REPORT_TEMPLATE_IDS, type ReportTemplateId } from '@gatehouse/shared/admin-paths';
import type { Role, TenantReport } from '@gatehouse/shared/wire';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { useT } from '../../i18n/i18n-context';
import { FilterFields } from './filter-fields';
import { dataFiltersOf, filterProblems, formValuesOf, type FieldProblem, type FilterValues } from './report-form';
import type { ReportInput } from './reports-api';

/** The server's 400 names each bad filter (errorContext.fields: dataFilters.<key>); those become field problems. */
function serverProblems(thrown: unknown): Record<string, FieldProblem> | null {
  const fields = (thrown as { errorContext?: { fields?: { field: string; message: string }[] } } | null)?.errorContext?.fields;
  if (!Array.isArray(fields)) return null;
  const problems: Record<string, FieldProblem> = {};
  for (const f of fields) if (f.field.startsWith('dataFilters.')) problems[f.field.slice('dataFilters.'.length)] = { key: 'reports.problem.server', values: { message: f.message } };
  return Object.keys(problems).length ? problems : null;
}

/** Create or edit a saved report: its name, template and the template's filters, checked here with the server's rules before sending. */
export function ReportDialog({ report, initialTemplate, templateIds = REPORT_TEMPLATE_IDS, roles, save, onClose }: {
  report: TenantReport | null;
  initialTemplate: ReportTemplateId;
  /** The templates offered (those the admin may run). */
  templateIds?: readonly ReportTemplateId[];
  roles: Role[] | null;
  save: (input: ReportInput) => Promise<void>;
  onClose: () => void;
}) {
  const t = useT();
  const ids = useId();
  const [name, setName] = useState(report?.name ?? t.t(`reports.template.${initialTemplate}.name`));
  const [templateId, setTemplateId] = useState<ReportTemplateId>(report?.templateId ?? initialTemplate);
  const [values, setValues] = useState<FilterValues>(() => formValuesOf(report?.templateId ?? initialTemplate, report?.dataFilters ?? {}));
  const [problems, setProblems] = useState<Record<string, FieldProblem>>({});
  const [nameProblem, setNameProblem] = useState('');
  const { busy, error, setError, run } = useSave();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = filterProblems(templateId, values);
    const trimmed = name.trim();
    const nameIssue = !trimmed ? t.t('reports.problem.nameMissing') : trimmed.length > REPORT_LIMITS.nameLength ? t.t('reports.problem.nameLong', { max: REPORT_LIMITS.nameLength }) : '';
    setProblems(found);
    setNameProblem(nameIssue);
    if (nameIssue || Object.keys(found).length) return;
    await run(async () => {
      try {
        await save({ ...(report ? { id: report.id } : {}), templateId, name: trimmed, dataFilters: dataFiltersOf(templateId, values) });
      } catch (thrown) {
        const fromServer = serverProblems(thrown);
        if (fromServer) setProblems(fromServer);
        throw thrown;
      }
    });
  }

  return (
    <Modal title={report ? t.t('reports.dialog.editTitle', { name: report.name }) : t.t('reports.dialog.newTitle')} onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        <TextField id={`${ids}-name`} label={t.t('reports.dialog.name')} value={name} busy={busy} problem={nameProblem} autofocus onChange={setName} />
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-template`}>{t.t('reports.dialog.template')}</label>
          <select
            id={`${ids}-template`}
            className="gh-ap-select"
            value={templateId}
            disabled={busy}
            aria-describedby={`${ids}-template-hint`}
            onChange={(e) => {
              const next = e.target.value as ReportTemplateId;
              setTemplateId(next);
              setValues(formValuesOf(next, {}));
              setProblems({});
              setError(null);
            }}
          >
            {templateIds.map((id) => <option key={id} value={id}>{t.t(`reports.template.${id}.name`)}</option>)}
          </select>
          <p id={`${ids}-template-hint`} className="gh-ap-hint">{t.t(`reports.template.${templateId}.description`)}</p>
        </div>
        <FilterFields templateId={templateId} values={values} problems={problems} roles={roles} busy={busy} idPrefix={ids} onChange={(key, value) => setValues((v) => ({ ...v, [key]: value }))} />
        <DialogFooter error={error} busy={busy} label={report ? t.t('reports.dialog.save') : t.t('reports.dialog.create')} onClose={onClose} />
      </form>
    </Modal>
  );
}
