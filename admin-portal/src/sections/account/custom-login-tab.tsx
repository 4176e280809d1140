import { useRef } from 'react';
import { contrastRatio } from '@gatehouse/shared';
import { useT } from '../../i18n/i18n-context';
import { TAB_FIELDS, type AccountField } from './account-form';
import { SaveRow, TextField } from './fields';
import type { TabFormProps } from './settings-tab';
import { useAccountForm } from './use-account-form';

const DEFAULT_COLOR = '#4f46e5';

/**
 * The Custom login tab: the tenant's own login box look (on/off, title, brand colour, with the
 * account logo) and the application URL its users go to after signing in, with a live preview.
 */
export function CustomLoginTab({ settings, mode, canWrite, save, idPrefix }: TabFormProps) {
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  const fieldId = (field: AccountField | 'logo') => `${idPrefix}-${field}`;
  const editable = TAB_FIELDS.customLogin.filter((field) => mode(field) === 'editable');
  const form = useAccountForm({ settings, editable, save, savedMessage: t.t('account.customLogin.saved'), fieldId, root: () => formRef.current });
  const { draft, edit, errors } = form;
  const validColor = /^#[0-9a-fA-F]{6}$/.test(draft.loginColor) ? draft.loginColor : DEFAULT_COLOR;
  const colorMode = mode('loginColor');
  const switchMode = mode('hasCustomLogin');
  // The preview's button text: whichever of white and near-black reads better on the chosen colour.
  const ink = contrastRatio('#ffffff', validColor) >= contrastRatio('#111827', validColor) ? 'gh-ap-ink-light' : 'gh-ap-ink-dark';
  const defaultTitle = t.t('account.customLogin.defaultTitle', { company: settings.companyName });

  return (
    <form ref={formRef} className="gh-ap-form" noValidate onSubmit={form.submit} aria-busy={form.saving} aria-label={t.t('account.tab.customLogin')}>
      {switchMode !== 'hidden' && (
        <div className="gh-ap-field">
          <div className="gh-ap-check">
            <input
              id={fieldId('hasCustomLogin')}
              type="checkbox"
              checked={draft.hasCustomLogin}
              disabled={switchMode === 'viewOnly'}
              aria-describedby={`${fieldId('hasCustomLogin')}-hint`}
              onChange={(event) => edit('hasCustomLogin', event.target.checked)}
            />
            <div>
              <label className="gh-ap-label" htmlFor={fieldId('hasCustomLogin')}>{t.t('account.customLogin.use')}</label>
              <p id={`${fieldId('hasCustomLogin')}-hint`} className="gh-ap-hint">{t.t('account.customLogin.useHint')}</p>
            </div>
          </div>
        </div>
      )}
      <TextField id={fieldId('loginTitle')} mode={mode('loginTitle')} error={errors.loginTitle} label={t.t('account.customLogin.title')} value={draft.loginTitle} onChange={(v) => edit('loginTitle', v)} maxLength={100} placeholder={defaultTitle} />
      {colorMode !== 'hidden' && (
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={fieldId('loginColor')}>{t.t('account.customLogin.color')}</label>
          <div className="gh-ap-color-row">
            <input type="color" aria-label={t.t('account.customLogin.pickColor')} value={validColor} disabled={colorMode === 'viewOnly'} tabIndex={colorMode === 'viewOnly' ? -1 : undefined} onChange={(event) => edit('loginColor', event.target.value)} />
            <input
              id={fieldId('loginColor')}
              className="gh-ap-input"
              type="text"
              value={draft.loginColor}
              readOnly={colorMode === 'viewOnly'}
              maxLength={7}
              placeholder={colorMode === 'viewOnly' ? undefined : DEFAULT_COLOR}
              aria-invalid={errors.loginColor ? true : undefined}
              aria-describedby={errors.loginColor ? `${fieldId('loginColor')}-error` : undefined}
              onChange={(event) => edit('loginColor', event.target.value)}
            />
          </div>
          {errors.loginColor && <p id={`${fieldId('loginColor')}-error`} className="gh-ap-field-error">{errors.loginColor}</p>}
        </div>
      )}
      <TextField
        id={fieldId('applicationUrl')}
        mode={mode('applicationUrl')}
        error={errors.applicationUrl}
        label={t.t('account.customLogin.applicationUrl')}
        hint={t.t('account.customLogin.applicationUrlHint')}
        type="url"
        value={draft.applicationUrl}
        onChange={(v) => edit('applicationUrl', v)}
        maxLength={2048}
        placeholder="https://app.example.com"
      />
      <div className="gh-ap-field">
        <p className="gh-ap-label" id={`${idPrefix}-preview-label`}>{t.t('account.customLogin.preview')}</p>
        <div className="gh-ap-login-preview" role="img" aria-labelledby={`${idPrefix}-preview-label`} aria-describedby={`${idPrefix}-preview-title`}>
          {settings.logo && <img src={settings.logo} alt="" />}
          <p id={`${idPrefix}-preview-title`} className="gh-ap-login-preview-title">{draft.loginTitle.trim() || defaultTitle}</p>
          <span className="gh-ap-login-preview-field" aria-hidden="true" />
          <span className={`gh-ap-login-preview-button ${ink}`} aria-hidden="true" style={{ background: validColor }}>{t.t('common.continue')}</span>
        </div>
        {!draft.hasCustomLogin && <p className="gh-ap-hint">{t.t('account.customLogin.off')}</p>}
      </div>
      <SaveRow saving={form.saving} status={form.status} banner={form.banner} canSave={canWrite && editable.length > 0} />
    </form>
  );
}
