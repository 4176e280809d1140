import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { AccountSettingsView } from '@gatehouse/shared/admin-paths';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import { adoptCss } from '../host-styles';
import { fieldVisibility, type FieldVisibility } from '../options';
import { createAccountApi, type AccountSettingsUpdate } from './account/account-api';
import type { AccountField, AccountTab } from './account/account-form';
import { CustomLoginTab } from './account/custom-login-tab';
import { SettingsTab } from './account/settings-tab';
import { TabPanel, Tabs } from '../controls/tabs';
import { useLatestLoad } from './dialogs/use-latest-load';
import type { SectionProps } from './section-props';
import { useErrorText } from '../i18n/errors';
import { useT } from '../i18n/i18n-context';
import { SectionSkeleton } from '../skeleton';
import css from './account/account.css?inline';

const TABS: readonly { id: AccountTab; label: string }[] = [
  { id: 'settings', label: 'account.tab.settings' },
  { id: 'customLogin', label: 'account.tab.customLogin' },
];

/**
 * Account settings (seed 001 sections 2 "Account details tabs: settings, customLogin", 3, 5, 7): the
 * tenant's company name, website, address, time zone, date and time formats, currency and logo, and
 * its custom login look and application URL. Readers (fe.secure.read.accountSettings) see every
 * field read-only; writers (fe.secure.write.accountSettings) edit and save each tab. The host may
 * hide or freeze each field and tab: `fieldVisibility.account.<field or tab>`.
 */
export default function AccountSection({ title, headingId, user, api, options }: SectionProps) {
  const t = useT();
  const toError = useErrorText();
  const account = useMemo(() => createAccountApi(api), [api]);
  const canWrite = Boolean(user.superUser) || holdsPermission(user, Permissions.accountSettingsWrite);
  const tabs = TABS.filter((tab) => fieldVisibility(options, 'account', tab.id) !== 'hidden').map((tab) => ({ ...tab, label: t.t(tab.label) }));
  const [selected, setSelected] = useState<AccountTab>(tabs[0]?.id ?? 'settings');
  const sectionRef = useRef<HTMLElement>(null);
  const idPrefix = `gh-account-${useId().replace(/:/g, '')}`;

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, css) : undefined), []);

  const { data: settings, replace, loading, error, reload: load } = useLatestLoad<AccountSettingsView>(account.get, toError, { keepDataOnError: true });

  const save = useCallback(
    async (body: AccountSettingsUpdate) => {
      // The saved settings win over a load still running.
      replace(await account.save(body));
    },
    [account, replace],
  );

  /** A tab marked view-only freezes every field in it; no write permission freezes everything. */
  const modeIn = (tab: AccountTab) => (field: AccountField | 'logo'): FieldVisibility => {
    const own = fieldVisibility(options, 'account', field);
    if (own === 'hidden') return 'hidden';
    return !canWrite || own === 'viewOnly' || fieldVisibility(options, 'account', tab) === 'viewOnly' ? 'viewOnly' : 'editable';
  };
  const tabCanWrite = (tab: AccountTab) => canWrite && fieldVisibility(options, 'account', tab) === 'editable';
  const current = tabs.some((tab) => tab.id === selected) ? selected : tabs[0]?.id;

  return (
    <section ref={sectionRef} className="gh-ap-section" aria-labelledby={headingId} aria-busy={loading}>
      <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
      {loading && !settings && (
        <SectionSkeleton label={t.t('account.loading')} />
      )}
      {error && !settings && (
        <div className="gh-ap-form">
          <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>
          <div className="gh-ap-actions"><button type="button" className="gh-ap-button" onClick={() => void load()}>{t.t('common.tryAgain')}</button></div>
        </div>
      )}
      {settings && tabs.length === 0 && <p className="gh-ap-readonly-note">{t.t('account.nothing')}</p>}
      {settings && current && (
        <>
          {!canWrite && <p className="gh-ap-readonly-note gh-ap-hint">{t.t('account.readOnly')}</p>}
          <Tabs label={t.t('account.tabs')} tabs={tabs} selected={current} onSelect={setSelected} idPrefix={idPrefix} />
          {tabs.map((tab) => (
            <TabPanel key={tab.id} idPrefix={idPrefix} id={tab.id} selected={tab.id === current}>
              {tab.id === 'settings' ? (
                <SettingsTab settings={settings} mode={modeIn('settings')} canWrite={tabCanWrite('settings')} save={save} idPrefix={`${idPrefix}-settings`} />
              ) : (
                <CustomLoginTab settings={settings} mode={modeIn('customLogin')} canWrite={tabCanWrite('customLogin')} save={save} idPrefix={`${idPrefix}-login`} />
              )}
            </TabPanel>
          ))}
        </>
      )}
    </section>
  );
}
