import { useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { ACCOUNT_LOGO_TYPES, type AccountSettingsView } from '@gatehouse/shared/admin-paths';
import type { FieldVisibility } from '../../options';
import type { AccountSettingsUpdate } from './account-api';
import { currencyChoices, dateFormatChoices, LOGO_HINT, logoProblem, TAB_FIELDS, timeFormatChoices, timeZoneChoices, type AccountField, type SettingsField } from './account-form';
import { SaveRow, SelectField, TextField } from './fields';
import { useAccountForm } from './use-account-form';

type LogoEdit = { kind: 'keep' } | { kind: 'set'; dataUrl: string } | { kind: 'remove' };

export interface TabFormProps {
  settings: AccountSettingsView;
  /** How each field (and 'logo') is offered, permissions already applied. */
  mode: (field: AccountField | 'logo') => FieldVisibility;
  canWrite: boolean;
  save: (body: AccountSettingsUpdate) => Promise<void>;
  idPrefix: string;
}

/** The Settings tab: company name, website, address, time zone, date and time formats, currency and logo. */
export function SettingsTab({ settings, mode, canWrite, save, idPrefix }: TabFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const readerRef = useRef<FileReader | null>(null);
  const [logo, setLogo] = useState<LogoEdit>({ kind: 'keep' });
  const fieldId = (field: AccountField | 'logo') => `${idPrefix}-${field}`;
  const editable = TAB_FIELDS.settings.filter((field) => mode(field) === 'editable');
  const form = useAccountForm({
    settings,
    editable,
    extra: () => (mode('logo') !== 'editable' || logo.kind === 'keep' ? undefined : logo.kind === 'set' ? { logo: logo.dataUrl } : settings.logo ? { logo: null } : undefined),
    save: async (body) => {
      await save(body);
      setLogo({ kind: 'keep' });
      if (fileRef.current) fileRef.current.value = '';
    },
    savedMessage: 'Account settings saved',
    fieldId,
    root: () => formRef.current,
  });
  const { draft, edit, errors } = form;

  useEffect(() => () => readerRef.current?.abort(), []);

  const timeZones = useMemo(() => timeZoneChoices(draft.timezone), [draft.timezone]);
  const currencies = useMemo(() => currencyChoices(draft.currency), [draft.currency]);
  const dateFormats = useMemo(() => dateFormatChoices(draft.dateFormat), [draft.dateFormat]);
  const timeFormats = useMemo(() => timeFormatChoices(draft.timeFormat), [draft.timeFormat]);

  function pickLogo(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    readerRef.current?.abort();
    form.setStatus('');
    if (!file) return;
    const problem = logoProblem(file);
    form.setErrors((current) => ({ ...current, logo: problem ?? undefined }));
    if (problem) {
      event.target.value = '';
      return;
    }
    const reader = new FileReader();
    readerRef.current = reader;
    reader.onload = () => {
      if (typeof reader.result === 'string') setLogo({ kind: 'set', dataUrl: reader.result });
    };
    reader.onerror = () => form.setErrors((current) => ({ ...current, logo: 'The logo could not be read. Choose another file.' }));
    reader.readAsDataURL(file);
  }

  const field = (name: SettingsField) => ({ id: fieldId(name), mode: mode(name), error: errors[name] });
  const logoMode = mode('logo');
  const preview = logo.kind === 'set' ? logo.dataUrl : logo.kind === 'remove' ? null : settings.logo;

  return (
    <form ref={formRef} className="gh-ap-form" noValidate onSubmit={form.submit} aria-busy={form.saving} aria-label="Account settings">
      {logoMode !== 'hidden' && (
        <div className="gh-ap-field">
          <div className="gh-ap-logo">
            <div className="gh-ap-logo-box">{preview ? <img src={preview} alt={logo.kind === 'set' ? 'New logo preview' : 'Current logo'} /> : <span>No logo</span>}</div>
            <div className="gh-ap-logo-controls">
              {logoMode === 'editable' ? (
                <>
                  <label className="gh-ap-label" htmlFor={fieldId('logo')}>Logo</label>
                  <input
                    ref={fileRef}
                    id={fieldId('logo')}
                    className="gh-ap-file"
                    type="file"
                    accept={ACCOUNT_LOGO_TYPES.join(',')}
                    aria-describedby={`${fieldId('logo')}-hint${errors.logo ? ` ${fieldId('logo')}-error` : ''}`}
                    aria-invalid={errors.logo ? true : undefined}
                    disabled={form.saving}
                    onChange={pickLogo}
                  />
                  <p id={`${fieldId('logo')}-hint`} className="gh-ap-hint">{LOGO_HINT}</p>
                  {errors.logo && <p id={`${fieldId('logo')}-error`} className="gh-ap-field-error" role="alert">{errors.logo}</p>}
                  {preview && (
                    <button
                      type="button"
                      className="gh-ap-button-secondary"
                      disabled={form.saving}
                      onClick={() => {
                        readerRef.current?.abort();
                        setLogo(settings.logo ? { kind: 'remove' } : { kind: 'keep' });
                        if (fileRef.current) fileRef.current.value = '';
                        form.setStatus('');
                      }}
                    >
                      Remove logo
                    </button>
                  )}
                </>
              ) : (
                <p className="gh-ap-label">Logo</p>
              )}
            </div>
          </div>
        </div>
      )}
      <TextField {...field('companyName')} label="Company name" value={draft.companyName} onChange={(v) => edit('companyName', v)} autoComplete="organization" maxLength={100} />
      <TextField {...field('website')} label="Website" type="url" value={draft.website} onChange={(v) => edit('website', v)} autoComplete="url" maxLength={2048} placeholder="https://example.com" />
      <TextField {...field('address')} label="Address" value={draft.address} onChange={(v) => edit('address', v)} autoComplete="street-address" maxLength={500} />
      <div className="gh-ap-row">
        <SelectField {...field('timezone')} label="Time zone" value={draft.timezone} choices={timeZones} onChange={(v) => edit('timezone', v)} />
        <SelectField {...field('currency')} label="Currency" value={draft.currency} choices={currencies} onChange={(v) => edit('currency', v)} />
      </div>
      <div className="gh-ap-row">
        <SelectField {...field('dateFormat')} label="Date format" value={draft.dateFormat} choices={dateFormats} onChange={(v) => edit('dateFormat', v)} />
        <SelectField {...field('timeFormat')} label="Time format" value={draft.timeFormat} choices={timeFormats} onChange={(v) => edit('timeFormat', v)} />
      </div>
      <SaveRow saving={form.saving} status={form.status} banner={form.banner} canSave={canWrite && (editable.length > 0 || logoMode === 'editable')} />
    </form>
  );
}
