import { useT } from '../../i18n/i18n-context';
import type { FieldVisibility } from '../../options';
import type { DurationDraft, DurationUnit } from './duration';
import type { DraftValue, FieldSpec } from './policy-form';

interface ControlProps {
  field: FieldSpec;
  id: string;
  value: DraftValue;
  mode: FieldVisibility;
  error?: string;
  onChange: (value: DraftValue) => void;
}

const describedBy = (id: string, hint?: string, error?: string) => [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

/** One field of a policy card: its label, control, hint and error; view-only fields are read-only, hidden ones absent. */
export function PolicyField({ field, id, value, mode, error, onChange }: ControlProps) {
  const t = useT();
  if (mode === 'hidden') return null;
  const viewOnly = mode === 'viewOnly';
  const hint = field.hint ? t.t(field.hint) : undefined;
  const aria = { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy(id, hint, error) } as const;
  const messages = (
    <>
      {hint && <p id={`${id}-hint`} className="gh-ap-hint">{hint}</p>}
      {error && <p id={`${id}-error`} className="gh-ap-field-error">{error}</p>}
    </>
  );

  if (field.kind === 'toggle') {
    return (
      <div className="gh-ap-field gh-ap-sec-toggle">
        <div className="gh-ap-sec-check">
          <input id={id} type="checkbox" role="switch" checked={value === true} disabled={viewOnly} {...aria} onChange={(event) => onChange(event.target.checked)} />
          <label htmlFor={id}>{t.t(field.label)}</label>
        </div>
        {messages}
      </div>
    );
  }

  if (field.kind === 'choice') {
    const chosen = field.choices.find((choice) => choice.value === value);
    return (
      <div className="gh-ap-field">
        <label className="gh-ap-label" htmlFor={id}>{t.t(field.label)}</label>
        {viewOnly ? (
          <input id={id} className="gh-ap-input" type="text" readOnly value={chosen ? t.t(chosen.label) : String(value)} aria-describedby={describedBy(id, hint, error)} />
        ) : (
          <select id={id} className="gh-ap-select" value={String(value)} {...aria} onChange={(event) => onChange(event.target.value)}>
            {field.choices.map((choice) => (
              <option key={choice.value} value={choice.value}>{t.t(choice.label)}</option>
            ))}
          </select>
        )}
        {messages}
      </div>
    );
  }

  if (field.kind === 'duration') {
    const duration = value as DurationDraft;
    const unitName = (unit: DurationUnit) => t.t(`security.unit.${unit}`);
    return (
      <div className="gh-ap-field">
        <label className="gh-ap-label" htmlFor={id}>{t.t(field.label)}</label>
        <div className="gh-ap-sec-amount">
          <input
            id={id}
            className="gh-ap-input"
            type="text"
            inputMode="numeric"
            readOnly={viewOnly}
           
            value={duration.amount}
            {...aria}
            onChange={(event) => onChange({ ...duration, amount: event.target.value })}
          />
          {field.units.length > 1 && !viewOnly ? (
            <select className="gh-ap-select" aria-label={t.t('security.unit.label', { field: t.t(field.label) })} value={duration.unit} onChange={(event) => onChange({ ...duration, unit: event.target.value as DurationUnit })}>
              {field.units.map((unit) => (
                <option key={unit} value={unit}>{unitName(unit)}</option>
              ))}
            </select>
          ) : (
            <span className="gh-ap-sec-suffix">{unitName(duration.unit)}</span>
          )}
        </div>
        {messages}
      </div>
    );
  }

  return (
    <div className="gh-ap-field">
      <label className="gh-ap-label" htmlFor={id}>{t.t(field.label)}</label>
      <div className="gh-ap-sec-amount">
        <input
          id={id}
          className="gh-ap-input"
          type="text"
          inputMode={field.step !== undefined && !Number.isInteger(field.step) ? 'decimal' : 'numeric'}
          readOnly={viewOnly}
         
          value={String(value)}
          {...aria}
          onChange={(event) => onChange(event.target.value)}
        />
        {field.suffix && <span className="gh-ap-sec-suffix">{t.t(field.suffix)}</span>}
      </div>
      {messages}
    </div>
  );
}
