import type { Role } from '@gatehouse/shared/wire';
import { REPORT_TEMPLATE_FILTERS, type ReportFilterDefinition, type ReportTemplateId } from '@gatehouse/shared/admin-paths';
import { useT } from '../../i18n/i18n-context';
import type { FieldProblem, FilterValues } from './report-form';

/**
 * The fields of a template's filters: a date picker per date, a number field, Any/Yes/No for a
 * boolean, a list for a choice, and the tenant's roles as checkboxes (left out when the roles cannot
 * be read). Each shows its problem under it, tied to the field.
 */
export function FilterFields({ templateId, values, problems, roles, busy, idPrefix, onChange }: {
  templateId: ReportTemplateId;
  values: FilterValues;
  problems: Record<string, FieldProblem>;
  roles: Role[] | null;
  busy: boolean;
  idPrefix: string;
  onChange: (key: string, value: string | string[]) => void;
}) {
  const t = useT();
  const defs = REPORT_TEMPLATE_FILTERS[templateId].filter((d) => d.type !== 'roles' || (roles && roles.length > 0));
  return (
    <fieldset className="gh-ap-fieldset gh-ap-report-filters">
      <legend className="gh-ap-label">{t.t('reports.dialog.filters')}</legend>
      {defs.map((def) => <FilterField key={def.key} def={def} value={values[def.key] ?? ''} problem={problems[def.key]} roles={roles ?? []} busy={busy} id={`${idPrefix}-${def.key}`} onChange={(v) => onChange(def.key, v)} />)}
    </fieldset>
  );
}

function FilterField({ def, value, problem, roles, busy, id, onChange }: { def: ReportFilterDefinition; value: string | string[]; problem: FieldProblem | undefined; roles: Role[]; busy: boolean; id: string; onChange: (value: string | string[]) => void }) {
  const t = useT();
  const label = t.t(`reports.filter.${def.key}`);
  const message = problem ? t.t(problem.key, problem.values) : '';
  const described = problem ? `${id}-error` : undefined;
  const error = problem ? <p id={`${id}-error`} className="gh-ap-field-error" role="alert">{message}</p> : null;
  const text = typeof value === 'string' ? value : '';
  if (def.type === 'roles') {
    const selected = Array.isArray(value) ? value : [];
    return (
      <fieldset className="gh-ap-fieldset" aria-describedby={described}>
        <legend className="gh-ap-label">{label}</legend>
        <div className="gh-ap-report-roles">
          {roles.map((role) => (
            <label key={role.id} className="gh-ap-check">
              <input type="checkbox" checked={selected.includes(role.id)} disabled={busy} onChange={(e) => onChange(e.target.checked ? [...selected, role.id] : selected.filter((r) => r !== role.id))} />
              <span>{role.name}</span>
            </label>
          ))}
        </div>
        <p className="gh-ap-hint">{t.t('reports.filter.rolesHint')}</p>
        {error}
      </fieldset>
    );
  }
  const common = { id, disabled: busy, 'aria-invalid': problem ? true : undefined, 'aria-describedby': described } as const;
  let control;
  if (def.type === 'boolean') {
    control = (
      <select {...common} className="gh-ap-select" value={text || 'any'} onChange={(e) => onChange(e.target.value)}>
        <option value="any">{t.t('reports.filter.any')}</option>
        <option value="true">{t.t(`reports.filter.${def.key}.true`)}</option>
        <option value="false">{t.t(`reports.filter.${def.key}.false`)}</option>
      </select>
    );
  } else if (def.type === 'select') {
    control = (
      <select {...common} className="gh-ap-select" value={text} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t.t('reports.filter.any')}</option>
        {(def.options ?? []).map((o) => <option key={o} value={o}>{o}</option>)}
      </select>
    );
  } else {
    control = (
      <input
        {...common}
        className="gh-ap-input"
        type={def.type === 'date' ? 'date' : 'text'}
        inputMode={def.type === 'number' ? 'numeric' : undefined}
        placeholder={def.type === 'number' ? t.t('reports.filter.limitPlaceholder', { max: def.max ?? 0 }) : undefined}
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  return (
    <div className="gh-ap-field">
      <label className="gh-ap-label" htmlFor={id}>{label}</label>
      {control}
      {error}
    </div>
  );
}
