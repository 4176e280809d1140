import { useEffect, useId, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { TabPanel, Tabs } from '../controls/tabs';
import { adoptCss } from '../host-styles';
import { useT } from '../i18n/i18n-context';
import ApplicationsTab from './operator/applications-tab';
import BillingTab from './operator/billing-tab';
import CdnTab from './operator/cdn-tab';
import FeaturesTab from './operator/features-tab';
import FlagsTab from './operator/flags-tab';
import { createOperatorApi } from './operator/operator-api';
import PlansTab from './operator/plans-tab';
import ProductsTab from './operator/products-tab';
import type { OperatorTabProps } from './operator/tab-props';
import type { SectionProps } from './section-props';
import usersCss from './users/users.css?inline';
import css from './operator/operator.css?inline';

export const OPERATOR_TABS = ['plans', 'features', 'flags', 'billing', 'applications', 'products', 'cdn'] as const;
export type OperatorTab = (typeof OPERATOR_TABS)[number];

const TAB_COMPONENTS: Readonly<Record<OperatorTab, ComponentType<OperatorTabProps>>> = {
  plans: PlansTab,
  features: FeaturesTab,
  flags: FlagsTab,
  billing: BillingTab,
  applications: ApplicationsTab,
  products: ProductsTab,
  cdn: CdnTab,
};

const isTab = (value: string | undefined): value is OperatorTab => (OPERATOR_TABS as readonly string[]).includes(value ?? '');

/**
 * The Operator area (issue 13 "Operator (vendor) side"): the vendor's super users manage plans,
 * features, feature flags with targeting rules, the billing configuration, the OAuth
 * applications, (issue 15) the vendor's applications as Products and (issue 18) the CDN rollouts. The navigation shows it only to super users; the server refuses everyone else.
 */
export default function OperatorSection(props: SectionProps) {
  const { title, headingId, user, api, target } = props;
  const t = useT();
  const operatorApi = useMemo(() => createOperatorApi(api), [api]);
  const targetTab = target?.split(':')[0];
  const [selected, setSelected] = useState<OperatorTab>(isTab(targetTab) ? targetTab : 'plans');
  // Each showing of a tab counts: its lists load again, so a feature added on one tab is offered on the next.
  const [shown, setShown] = useState(0);
  const select = (tab: OperatorTab) => {
    setSelected(tab);
    setShown((n) => n + 1);
  };
  const sectionRef = useRef<HTMLElement>(null);
  const idPrefix = `gh-operator-${useId().replace(/:/g, '')}`;
  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, `${usersCss}\n${css}`) : undefined), []);

  const tabs = OPERATOR_TABS.map((id) => ({ id, label: t.t(`operator.tab.${id}`) }));
  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide gh-ap-op" aria-labelledby={headingId}>
      <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
      {!user.superUser ? (
        <p className="gh-ap-banner gh-ap-banner-warning" role="note">{t.t('operator.superUsersOnly')}</p>
      ) : (
        <>
          <p className="gh-ap-hint">{t.t('operator.intro')}</p>
          <Tabs label={t.t('operator.tabs')} tabs={tabs} selected={selected} onSelect={select} idPrefix={idPrefix} />
          {tabs.map((tab) => {
            const Tab = TAB_COMPONENTS[tab.id];
            return (
              <TabPanel key={tab.id} idPrefix={idPrefix} id={tab.id} selected={tab.id === selected}>
                {/* A tab loads when first shown and stays mounted, so unsaved edits survive switching. */}
                <LazyMount show={tab.id === selected}>
                  <Tab api={operatorApi} snapshot={props.snapshot} generation={tab.id === selected ? shown : -1} />
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
