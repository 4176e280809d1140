import { useEffect, useMemo, useRef, useState } from 'react';
import { SecurityCenterFlags, type SecurityCenterAction } from '@gatehouse/shared/admin-paths';
import { holdsPermission } from '../access';
import { Permissions } from '../contract';
import { adoptCss } from '../host-styles';
import { useErrorText } from '../i18n/errors';
import { useT } from '../i18n/i18n-context';
import { fieldVisibility, type FieldVisibility } from '../options';
import { Toast } from '../toast';
import { DeleteDialog } from './dialogs/delete-dialog';
import { useInertWhile } from './dialogs/use-inert';
import { useLatestLoad } from './dialogs/use-latest-load';
import type { SectionProps } from './section-props';
import { Insights } from './security-center/insights';
import { LoginFlowsPanel } from './security-center/login-flows';
import { ACTION_TARGETS, Recommendations } from './security-center/recommendations';
import { ScoreGauge } from './security-center/score-gauge';
import { ScoreHistory } from './security-center/score-history';
import { createSecurityCenterApi } from './security-center/security-center-api';
import css from './security-center/security-center.css?inline';
import { UserTable } from './security-center/user-table';
import usersCss from './users/users.css?inline';

/** Flag `security-center-admin-portal-major-version`: '1' the compact page, '2' (the default) the full one. */
export function majorVersion(flags: Readonly<Record<string, string>> | undefined): 1 | 2 {
  return flags?.[SecurityCenterFlags.adminPortalMajorVersion] === '1' ? 1 : 2;
}

/**
 * The security center (issue 12; seed 001 sections 3, 7, 9): the tenant's score and level, the
 * score's history, recommendations with their actions, insights by category, and the users behind
 * them (breached passwords, no MFA, inactive). Feature flags choose the compact or the full page and
 * whether the "Sign-in protection" panel shows.
 */
export default function SecurityCenterSection({ title, headingId, user, api, options, openSection }: SectionProps) {
  const t = useT();
  const toError = useErrorText();
  const center = useMemo(() => createSecurityCenterApi(api), [api]);
  const version = majorVersion(options.flags);
  const showFlows = options.flags?.[SecurityCenterFlags.showLoginFlows] === 'on';
  const canWrite = Boolean(user.superUser) || holdsPermission(user, Permissions.securityPolicyWrite);
  const canReadUsers = Boolean(user.superUser) || holdsPermission(user, Permissions.usersRead);
  const visibility = (field: string): FieldVisibility => fieldVisibility(options, 'securityCenter', field);
  const resetMode: FieldVisibility = canWrite ? visibility('resetBreachedPasswords') : 'hidden';
  const adjustMode: FieldVisibility = openSection ? visibility('adjust') : 'hidden';

  const sectionRef = useRef<HTMLElement>(null);
  const behindRef = useRef<HTMLDivElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const [confirmingReset, setConfirmingReset] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, `${usersCss}\n${css}`) : undefined), []);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Opened from another section (its button is gone with it), the keyboard starts at this heading;
    // opened from the navigation, focus stays on the navigation.
    const heading = headingRef.current;
    if (!heading) return;
    const page = heading.ownerDocument;
    const inRoot = (heading.getRootNode() as Document | ShadowRoot).activeElement;
    const lost = !page.activeElement || page.activeElement === page.body || inRoot?.getAttribute('role') === 'dialog';
    if (lost) heading.focus();
  }, []);
  useInertWhile(behindRef, confirmingReset);
  useEffect(() => {
    if (!confirmingReset && returnFocus.current) {
      const target = returnFocus.current;
      returnFocus.current = null;
      if (target.isConnected) target.focus();
    }
  }, [confirmingReset]);

  const recommendations = useLatestLoad(center.recommendations, toError, { keepDataOnError: true });
  const noop = useMemo(() => () => Promise.resolve(null), []);
  const insights = useLatestLoad(version === 2 ? center.insights : noop, toError);
  const history = useLatestLoad(version === 2 ? center.scoreHistory : noop, toError);
  const flows = useLatestLoad(showFlows ? center.loginFlows : noop, toError);

  function onAction(action: SecurityCenterAction, _: unknown) {
    if (action === 'SEND_RESET_BREACHED_PASSWORD_EMAIL') {
      returnFocus.current = (sectionRef.current?.getRootNode() as Document | ShadowRoot | undefined)?.activeElement as HTMLElement | null;
      setNotice(null);
      setConfirmingReset(true);
      return;
    }
    const target = ACTION_TARGETS[action];
    if (target) openSection?.('security', target);
  }

  const data = recommendations.data;
  const breached = data?.recommendations.find((r) => r.action === 'SEND_RESET_BREACHED_PASSWORD_EMAIL')?.affectedUsers;

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide gh-ap-sc" aria-labelledby={headingId}>
      <div ref={behindRef} className="gh-ap-sc-body">
        <div className="gh-ap-users-head">
          <h2 ref={headingRef} id={headingId} className="gh-ap-section-title" tabIndex={-1}>{title}</h2>
          {openSection && visibility('openSettings') !== 'hidden' && (
            <button type="button" className="gh-ap-button-secondary" onClick={() => openSection('security')}>{t.t('securityCenter.openSettings')}</button>
          )}
        </div>
        <p className="gh-ap-modal-text">{t.t('securityCenter.intro')}</p>
        <Toast message={notice} />

        {recommendations.error && (
          <div className="gh-ap-banner gh-ap-banner-error" role="alert">
            <span>{recommendations.error}</span>{' '}
            <button type="button" className="gh-ap-link" onClick={() => void recommendations.reload()}>{t.t('common.tryAgain')}</button>
          </div>
        )}

        <div className={version === 2 ? 'gh-ap-sc-top' : 'gh-ap-sc-top gh-ap-sc-top-compact'}>
          <div className="gh-ap-sc-card gh-ap-sc-score">
            {data ? <ScoreGauge score={data.score} level={data.level} /> : recommendations.loading ? (
              <div className="gh-ap-sc-skeleton" aria-busy="true">
                <p className="gh-ap-visually-hidden" role="status">{t.t('securityCenter.loading')}</p>
                <div className="gh-ap-skeleton-bar gh-ap-sc-skeleton-gauge" />
              </div>
            ) : null}
          </div>
          {version === 2 && (
            <section className="gh-ap-sc-card" aria-labelledby={`${headingId}-history`}>
              <h3 id={`${headingId}-history`} className="gh-ap-sc-card-title">{t.t('securityCenter.history.title')}</h3>
              {history.error ? (
                <div className="gh-ap-banner gh-ap-banner-error" role="alert">
                  <span>{history.error}</span>{' '}
                  <button type="button" className="gh-ap-link" onClick={() => void history.reload()}>{t.t('common.tryAgain')}</button>
                </div>
              ) : history.data ? <ScoreHistory points={history.data.points} /> : <div className="gh-ap-skeleton-bar gh-ap-sc-skeleton-chart" aria-hidden="true" />}
            </section>
          )}
        </div>

        {showFlows && (
          <section className="gh-ap-sc-card" aria-labelledby={`${headingId}-flows`}>
            <h3 id={`${headingId}-flows`} className="gh-ap-sc-card-title">{t.t('securityCenter.flows.title')}</h3>
            {flows.data ? <LoginFlowsPanel flows={flows.data} /> : flows.error ? <p className="gh-ap-banner gh-ap-banner-error" role="alert">{flows.error}</p> : <div className="gh-ap-skeleton-bar gh-ap-sc-skeleton-chart" aria-hidden="true" />}
          </section>
        )}

        <section className="gh-ap-sc-block" aria-labelledby={`${headingId}-recommendations`}>
          <h3 id={`${headingId}-recommendations`} className="gh-ap-sc-card-title">{t.t('securityCenter.recommendations.title')}</h3>
          {data ? <Recommendations items={data.recommendations} resetMode={resetMode} adjustMode={adjustMode} onAction={onAction} /> : recommendations.loading ? <div className="gh-ap-skeleton-bar gh-ap-sc-skeleton-chart" aria-hidden="true" /> : null}
        </section>

        {version === 2 && (
          <section className="gh-ap-sc-block" aria-labelledby={`${headingId}-insights`}>
            <h3 id={`${headingId}-insights`} className="gh-ap-sc-card-title">{t.t('securityCenter.insights.title')}</h3>
            {insights.error ? (
              <div className="gh-ap-banner gh-ap-banner-error" role="alert">
                <span>{insights.error}</span>{' '}
                <button type="button" className="gh-ap-link" onClick={() => void insights.reload()}>{t.t('common.tryAgain')}</button>
              </div>
            ) : insights.data ? <Insights items={insights.data.insights} /> : <div className="gh-ap-skeleton-bar gh-ap-sc-skeleton-chart" aria-hidden="true" />}
          </section>
        )}

        {version === 2 && (
          <section className="gh-ap-sc-block" aria-labelledby={`${headingId}-users`}>
            <h3 id={`${headingId}-users`} className="gh-ap-sc-card-title">{t.t('securityCenter.table.title')}</h3>
            {canReadUsers ? (
              <div className="gh-ap-sc-tables">
                <UserTable preset="breached-passwords" center={center} />
                <UserTable preset="mfa-unenrolled" center={center} />
                <UserTable preset="inactive" center={center} />
              </div>
            ) : <p className="gh-ap-hint">{t.t('securityCenter.table.noPermission')}</p>}
          </section>
        )}
      </div>

      {confirmingReset && (
        <DeleteDialog
          title={t.t('securityCenter.reset.title')}
          text={breached !== undefined ? t.t('securityCenter.reset.textCount', { count: breached }) : t.t('securityCenter.reset.text')}
          confirmLabel={t.t('securityCenter.reset.confirm')}
          onClose={() => setConfirmingReset(false)}
          run={async () => {
            // Seed 001 section 4: a security action reports its outcome to the host (`adminPortal.callbacks.securityCenter`).
            const report = options.callbacks?.securityCenter;
            let emailed: number;
            try {
              ({ emailed } = await center.resetBreachedPasswords());
            } catch (thrown) {
              report?.(false);
              throw thrown;
            }
            report?.(true);
            setConfirmingReset(false);
            setNotice(t.t('securityCenter.reset.done', { count: emailed }));
            void recommendations.reload();
          }}
        />
      )}
    </section>
  );
}
