import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { holdsPermission } from '../../access';
import { Permissions } from '../../contract';
import { TabPanel, Tabs } from '../../controls/tabs';
import { adoptCss } from '../../host-styles';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { fieldVisibility } from '../../options';
import { useLatestLoad } from '../dialogs/use-latest-load';
import type { SectionProps } from '../section-props';
import tableCss from '../users/users.css?inline';
import copyCss from '../api-tokens/api-tokens.css?inline';
import ownCss from './connectivity.css?inline';
import { ChannelTab } from './channel-tab';
import { createConnectivityApi } from './connectivity-api';
import { SlackTab } from './slack-tab';
import { slackReturn } from './slack-return';
import type { ConnectivityTabProps } from './tab-props';
import { WebhooksTab } from './webhooks-tab';

/** Seed 001 section 2: "Notification channels, in order: email, slack, sms, webhook". */
export const CONNECTIVITY_TABS = ['email', 'slack', 'sms', 'webhooks'] as const;
export type ConnectivityTab = (typeof CONNECTIVITY_TABS)[number];

/** The read and write permission of each tab (seed 001 section 2; issue 16). */
export const TAB_PERMISSIONS: Readonly<Record<ConnectivityTab, { read: string; write: string }>> = {
  email: { read: Permissions.emailConfigRead, write: Permissions.emailConfigWrite },
  slack: { read: Permissions.slackAppRead, write: Permissions.slackAppWrite },
  sms: { read: Permissions.smsConfigRead, write: Permissions.smsConfigWrite },
  webhooks: { read: Permissions.webhooksRead, write: Permissions.webhooksWrite },
};

const TAB_LABELS: Readonly<Record<ConnectivityTab, string>> = {
  email: 'connectivity.tab.email',
  slack: 'connectivity.tab.slack',
  sms: 'connectivity.tab.sms',
  webhooks: 'connectivity.tab.webhooks',
};

const isTab = (value: string | undefined): value is ConnectivityTab => (CONNECTIVITY_TABS as readonly string[]).includes(value ?? '');

/**
 * Connectivity (seed 001 sections 2-5, 7, 9; issue 16): where a tenant's admins choose who hears of
 * what happens in the account. Tabs in the seed's order, each shown only to holders of its read
 * permission (super users see all): Email and SMS (recipients per event), Slack (a connected
 * workspace's channels per event) and Webhooks (signed HTTP deliveries, with their log). Writes need
 * the tab's write permission; the host may hide a tab or make it view-only with
 * `adminPortal.fieldVisibility.webhooks.<email|slack|sms|webhooks>`. Opened at a target (`email`, `slack`, `sms`, `webhooks`) it shows that
 * tab; back from Slack's consent (`?code=&state=` on the page) it shows the Slack tab.
 */
export function ConnectivitySection({ title, headingId, user, api, target, options }: SectionProps) {
  const t = useT();
  const toError = useErrorText();
  const connectivity = useMemo(() => createConnectivityApi(api), [api]);
  const sectionRef = useRef<HTMLElement>(null);
  const idPrefix = `gh-connectivity-${useId().replace(/:/g, '')}`;
  const may = (key: string) => Boolean(user.superUser) || holdsPermission(user, key);
  // Seed 001 section 2: the host may hide a tab or show it view-only (`adminPortal.fieldVisibility.webhooks.<tab>`).
  const hostMode = (tab: ConnectivityTab) => fieldVisibility(options, 'webhooks', tab);
  const tabs = CONNECTIVITY_TABS.filter((tab) => may(TAB_PERMISSIONS[tab].read) && hostMode(tab) !== 'hidden').map((tab) => ({ id: tab, label: t.t(TAB_LABELS[tab]) }));
  const first = (): ConnectivityTab => {
    if (isTab(target)) return target;
    if (typeof window !== 'undefined' && slackReturn(window.location)) return 'slack';
    return tabs[0]?.id ?? 'webhooks';
  };
  const [selected, setSelected] = useState<ConnectivityTab>(first);
  const events = useCallback(() => connectivity.events(), [connectivity]);
  const catalogue = useLatestLoad(events, toError);

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, `${tableCss}\n${copyCss}\n${ownCss}`) : undefined), []);
  useEffect(() => {
    if (isTab(target)) setSelected(target);
  }, [target]);

  const current = tabs.some((tab) => tab.id === selected) ? selected : tabs[0]?.id;
  const propsOf = (tab: ConnectivityTab): ConnectivityTabProps => ({
    connectivity,
    catalogue: catalogue.data,
    catalogueError: catalogue.error ? t.t('connectivity.catalogueFailed', { message: catalogue.error }) : null,
    canWrite: may(TAB_PERMISSIONS[tab].write) && hostMode(tab) === 'editable',
    idPrefix: `${idPrefix}-${tab}`,
  });

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div className="gh-ap-cx-header">
        <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
      </div>
      {!current && <p className="gh-ap-hint">{t.t('connectivity.nothing')}</p>}
      {current && (
        <>
          <Tabs label={t.t('connectivity.tabs')} tabs={tabs} selected={current} onSelect={setSelected} idPrefix={idPrefix} />
          {tabs.map((tab) => (
            <TabPanel key={tab.id} idPrefix={idPrefix} id={tab.id} selected={tab.id === current}>
              {/* A tab mounts when first shown (its calls wait until then), then stays, so its drafts survive switching. */}
              <LazyPanel shown={tab.id === current}>
                {tab.id === 'email' && <ChannelTab channel="email" {...propsOf('email')} />}
                {tab.id === 'sms' && <ChannelTab channel="sms" {...propsOf('sms')} />}
                {tab.id === 'slack' && <SlackTab {...propsOf('slack')} />}
                {tab.id === 'webhooks' && <WebhooksTab {...propsOf('webhooks')} />}
              </LazyPanel>
            </TabPanel>
          ))}
        </>
      )}
    </section>
  );
}

/** Renders its children from the first time it is shown on. */
function LazyPanel({ shown, children }: { shown: boolean; children: ReactNode }) {
  const [seen, setSeen] = useState(shown);
  useEffect(() => {
    if (shown) setSeen(true);
  }, [shown]);
  return seen || shown ? <>{children}</> : null;
}
