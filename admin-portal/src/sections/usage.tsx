import { useCallback, useEffect, useMemo, useRef } from 'react';
import { BILLING_CHANGED_EVENT } from '@gatehouse/shared';
import { useErrorText } from '../i18n/errors';
import { useT } from '../i18n/i18n-context';
import { adoptCss } from '../host-styles';
import { useLatestLoad } from './dialogs/use-latest-load';
import type { SectionProps } from './section-props';
import { createBillingApi } from './subscription/billing-api';
import { subscriptionOpener } from './subscription/open-subscription';
import { UsageMeter } from './usage/usage-meter';
import css from './subscription/subscription.css?inline';

/**
 * The Usage section (issue 13; fe.usage.read, behind the usage feature flag): seats used of the
 * plan's limit, and each limited feature's use, as meters. Near or at a limit it links to the
 * Subscription section, when the user can open it. A confirmed checkout (`gatehouse:billing-changed`)
 * reads the limits again.
 */
export default function UsageSection({ title, headingId, user, api, options, openSection }: SectionProps) {
  const t = useT();
  const toError = useErrorText();
  const billing = useMemo(() => createBillingApi(api), [api]);
  const fetch = useCallback(() => billing.usage(), [billing]);
  const { data, loading, error, reload } = useLatestLoad(fetch, toError);
  const sectionRef = useRef<HTMLElement>(null);
  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, css) : undefined), []);
  // A plan changed in the checkout changes the limits: read them again.
  useEffect(() => {
    const onChange = () => void reload();
    window.addEventListener(BILLING_CHANGED_EVENT, onChange);
    return () => window.removeEventListener(BILLING_CHANGED_EVENT, onChange);
  }, [reload]);

  const upgrade = subscriptionOpener({ user, options, openSection });

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-sub" aria-labelledby={headingId} aria-busy={loading}>
      <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
      {error && (
        <div className="gh-ap-sub-stack">
          <p className="gh-ap-banner gh-ap-banner-error" role="alert">{t.t('usage.loadFailed')} {error}</p>
          <div><button type="button" className="gh-ap-button-secondary" onClick={() => void reload()}>{t.t('common.tryAgain')}</button></div>
        </div>
      )}
      {!data && !error && (
        <div className="gh-ap-skeleton" aria-busy="true">
          <p className="gh-ap-visually-hidden" role="status">{t.t('usage.loading')}</p>
          <div className="gh-ap-skeleton-bar gh-ap-skeleton-heading" />
          <div className="gh-ap-skeleton-bar" />
          <div className="gh-ap-skeleton-bar gh-ap-skeleton-short" />
        </div>
      )}
      {data && (
        <div className="gh-ap-sub-stack">
          <p className="gh-ap-modal-text">{t.t('usage.intro')}</p>
          <div className="gh-ap-sub-card">
            <ul className="gh-ap-usage-list">
              <UsageMeter name={t.t('usage.seats')} used={data.seats.used} limit={data.seats.limit} onUpgrade={upgrade} />
            </ul>
          </div>
          <div className="gh-ap-sub-block">
            <h3 className="gh-ap-sub-heading">{t.t('usage.features')}</h3>
            {data.features.length === 0 ? (
              <p className="gh-ap-sub-empty">{t.t('usage.noFeatures')}</p>
            ) : (
              <div className="gh-ap-sub-card">
                <ul className="gh-ap-usage-list">
                  {data.features.map((feature) => <UsageMeter key={feature.key} name={feature.name} used={feature.used} limit={feature.limit} onUpgrade={upgrade} />)}
                </ul>
              </div>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
