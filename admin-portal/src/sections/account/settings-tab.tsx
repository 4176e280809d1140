import { useEffect, useMemo, useRef, useState } from 'react';
import { ACCOUNT_LOGO_TYPES, type AccountSettingsView } from '@gatehouse/shared/admin-paths';
import { FilePicker } from '../../controls/file-picker';
import { useT } from '../../i18n/i18n-context';
import type { FieldVisibility } from '../../options';
import type { AccountSettingsUpdate } from './account-api';
import { currencyChoices, dateFormatChoices, LOGO_MAX_KB, logoProblem, TAB_FIELDS, timeFormatChoices, timeZoneChoices, type AccountField, type SettingsField } from './account-form';
import { ComboboxField, SaveRow, SelectField, TextField } from './fields';
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

/**
 * The Settings tab: company name, website, address, time zone and currency (searchable pickers),
 * date and time formats, and the logo (picked or dropped, previewed before saving).
 */
export function SettingsTab({ settings, mode, canWrite, save, idPrefix }: TabFormProps) {
  const t = useT();
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
    savedMessage: t.t('account.saved'),
    fieldId,
    root: () => formRef.current,
  });
  const { draft, edit, errors } = form;

  useEffect(() => () => readerRef.current?.abort(), []);

  const timeZones = useMemo(() => timeZoneChoices(draft.timezone, new Date(), t.locale), [draft.timezone, t.locale]);
  const currencies = useMemo(() => currencyChoices(draft.currency, t.locale), [draft.currency, t.locale]);
  const dateFormats = useMemo(() => dateFormatChoices(draft.dateFormat), [draft.dateFormat]);
  const timeFormats = useMemo(() => timeFormatChoices(draft.timeFormat, new Date(), { h24: t.t('account.clock24'), h12: t.t('account.clock12') }), [draft.timeFormat, t]);

  function pickLogo(file: File | null) {
    readerRef.current?.abort();
    form.setStatus('');
    if (!file) return;
    const problem = logoProblem(file);
    form.setErrors((current) => ({ ...current, logo: problem ? t.t(problem, { kb: LOGO_MAX_KB }) : undefined }));
    if (problem) {
      if (fileRef.current) fileRef.current.value = '';
      return;
    }
    const reader = new FileReader();
    readerRef.current = reader;
    reader.onload = () => {
      if (typeof reader.result === 'string') setLogo({ kind: 'set', dataUrl: reader.result });
    };
    reader.onerror = () => form.setErrors((current) => ({ ...current, logo: t.t('account.logo.unreadable') }));
    reader.readAsDataURL(file);
  }

  const field = (name: SettingsField) => ({ id: fieldId(name), mode: mode(name), error: errors[name] });
  const logoMode = mode('logo');
  const preview = logo.kind === 'set' ? logo.dataUrl : logo.kind === 'remove' ? null : settings.logo;
  const logoBox = (
    <div className="gh-ap-logo-box">{preview ? <img src={preview} alt={t.t(logo.kind === 'set' ? 'account.logo.newPreview' : 'account.logo.current')} /> : <span>{t.t('account.logo.none')}</span>}</div>
  );

  return (
    <form ref={formRef} className="gh-ap-form" noValidate onSubmit={form.submit} aria-busy={form.saving} aria-label={t.t('account.tab.settings')}>
      {logoMode === 'editable' && (
        <FilePicker
          id={fieldId('logo')}
          label={t.t('account.logo.label')}
          hint={t.t('account.logo.hint', { kb: LOGO_MAX_KB })}
          accept={ACCOUNT_LOGO_TYPES.join(',')}
          preview={logoBox}
          disabled={form.saving}
          error={errors.logo}
          inputRef={fileRef}
          onFile={pickLogo}
          {...(preview
            ? {
                removeLabel: t.t('account.logo.remove'),
                onRemove: () => {
                  readerRef.current?.abort();
                  setLogo(settings.logo ? { kind: 'remove' } : { kind: 'keep' });
                  form.setStatus('');
                },
              }
            : {})}
        />
      )}
      {logoMode === 'viewOnly' && (
        <div className="gh-ap-field">
          <p className="gh-ap-label">{t.t('account.logo.label')}</p>
          {logoBox}
        </div>
      )}
      <TextField {...field('companyName')} label={t.t('account.field.companyName')} value={draft.companyName} onChange={(v) => edit('companyName', v)} autoComplete="organization" maxLength={100} />
      <TextField {...field('website')} label={t.t('account.field.website')} type="url" value={draft.website} onChange={(v) => edit('website', v)} autoComplete="url" maxLength={2048} placeholder="https://example.com" />
      <TextField {...field('address')} label={t.t('account.field.address')} value={draft.address} onChange={(v) => edit('address', v)} autoComplete="street-address" maxLength={500} />
      <div className="gh-ap-row">
        <ComboboxField {...field('timezone')} label={t.t('account.field.timezone')} value={draft.timezone} choices={timeZones} onChange={(v) => edit('timezone', v)} />
        <ComboboxField {...field('currency')} label={t.t('account.field.currency')} value={draft.currency} choices={currencies} onChange={(v) => edit('currency', v)} />
      </div>
      <div className="gh-ap-row">
        <SelectField {...field('dateFormat')} label={t.t('account.field.dateFormat')} value={draft.dateFormat} choices={dateFormats} onChange={(v) => edit('dateFormat', v)} />
        <SelectField {...field('timeFormat')} label={t.t('account.field.timeFormat')} value={draft.timeFormat} choices={timeFormats} onChange={(v) => edit('timeFormat', v)} />
      </div>
      <SaveRow saving={form.saving} status={form.status} banner={form.banner} canSave={canWrite && (editable.length > 0 || logoMode === 'editable')} />
    </form>
  );
}
