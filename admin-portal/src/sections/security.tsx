import { useEffect, useId, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { SecurityTabs, type SecurityTab } from '@gatehouse/shared/admin-paths';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import { TabPanel, Tabs } from '../controls/tabs';
import { adoptCss } from '../host-styles';
import { useT } from '../i18n/i18n-context';
import DomainRestrictionsTab from './security/domain-restrictions-tab';
import GeneralSettingsTab from './security/general-settings-tab';
import IpRestrictionsTab from './security/ip-restrictions-tab';
import SessionManagementTab from './security/session-management-tab';
import type { SecurityTabProps } from './security/tab-props';
import { securityMode } from './security/visibility';
import type { SectionProps } from './section-props';
import css from './security/security.css?inline';

const TAB_LABELS: Readonly<Record<SecurityTab, string>> = {
  sessionManagement: 'security.tab.sessionManagement',
  generalSettings: 'security.tab.generalSettings',
  ipRestrictions: 'security.tab.ipRestrictions',
  domainRestrictions: 'security.tab.domainRestrictions',
};

const TAB_COMPONENTS: Readonly<Record<SecurityTab, ComponentType<SecurityTabProps>>> = {
  sessionManagement: SessionManagementTab,
  generalSettings: GeneralSettingsTab,
  ipRestrictions: IpRestrictionsTab,
  domainRestrictions: DomainRestrictionsTab,
};

const isTab = (value: string | undefined): value is SecurityTab => (SecurityTabs as readonly string[]).includes(value ?? '');

/**
 * The Security section (issue 12; seed 001 sections 2, 3): four tabs (sessionManagement,
 * generalSettings, ipRestrictions, domainRestrictions). Readers (fe.secure.read.securityPolicy) see
 * every setting view-only; writers (fe.secure.write.securityPolicy) save them. The host may hide or
 * freeze each tab, card and field (`fieldVisibility.security.<name>`). Opened at a target
 * (`<tab>` or `<tab>:<setting>`, e.g. from a security-center action), it shows that tab and focuses
 * that setting. Each save reports true, or false on failure, to the host's
 * `adminPortal.callbacks.security` (seed 001 section 4).
 */
export default function SecuritySection(props: SectionProps & { onResult?: (ok: boolean) => void }) {
  const { title, headingId, user, options, target, openSection } = props;
  const t = useT();
  const canWrite = Boolean(user.superUser) || holdsPermission(user, Permissions.securityPolicyWrite);
  const tabs = SecurityTabs.filter((tab) => securityMode(options, canWrite, [tab]) !== 'hidden').map((tab) => ({ id: tab, label: t.t(TAB_LABELS[tab]) }));
  const targetTab = target?.split(':')[0];
  const [selected, setSelected] = useState<SecurityTab>(isTab(targetTab) ? targetTab : (tabs[0]?.id ?? 'sessionManagement'));
  const [focusRequest, setFocusRequest] = useState(0);
  const sectionRef = useRef<HTMLElement>(null);
  const idPrefix = `gh-security-${useId().replace(/:/g, '')}`;

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, css) : undefined), []);

  // Opened (again) at a target: show its tab; the tab focuses the setting it names.
  useEffect(() => {
    if (!target) return;
    if (isTab(targetTab)) setSelected(targetTab);
    setFocusRequest((n) => n + 1);
  }, [target]);

  const current = tabs.some((tab) => tab.id === selected) ? selected : tabs[0]?.id;

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-sec" aria-labelledby={headingId}>
      <div className="gh-ap-sec-header">
        <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
        {openSection && (
          <button type="button" className="gh-ap-button-secondary" onClick={() => openSection('securityCenter')}>
            {t.t('security.openCenter')}
          </button>
        )}
      </div>
      {!canWrite && <p className="gh-ap-hint">{t.t('security.readOnly')}</p>}
      {!current && <p className="gh-ap-hint">{t.t('security.nothing')}</p>}
      {current && (
        <>
          <Tabs label={t.t('security.tabs')} tabs={tabs} selected={current} onSelect={setSelected} idPrefix={idPrefix} />
          {tabs.map((tab) => {
            const Tab = TAB_COMPONENTS[tab.id];
            return (
              <TabPanel key={tab.id} idPrefix={idPrefix} id={tab.id} selected={tab.id === current}>
                {/* A tab mounts when first shown (its calls wait until then) and stays mounted, so unsaved edits survive switching. */}
                <LazyMount show={tab.id === current}>
                  <Tab {...props} canWrite={canWrite && securityMode(options, canWrite, [tab.id]) === 'editable'} openTab={setSelected} onResult={props.onResult ?? options.callbacks?.security} focusRequest={focusRequest} />
                </LazyMount>
              </TabPanel>
            );
          })}
        </>
      )}
    </section>
  );
}

function LazyMount({ show, children }: { show: boolean; children: ReactNode }) {
  const [shown, setShown] = useState(show);
  useEffect(() => {
    if (show) setShown(true);
  }, [show]);
  return shown || show ? <>{children}</> : null;
}
