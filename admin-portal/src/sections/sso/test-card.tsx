import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { defaultRoutes } from '@gatehouse/shared';
import type { Role, SsoConfiguration, SsoTestProblem, SsoTestReport } from '@gatehouse/shared/wire';
import { shortDate } from '../../format';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { canTest, localDeadline, oidcRedirectUri, waitForReport } from './connection-test';
import type { SsoApi } from './sso-api';

type Outcome = { kind: 'idle' } | { kind: 'waiting'; address: string } | { kind: 'report'; report: SsoTestReport } | { kind: 'expired' } | { kind: 'error'; message: string };

/**
 * Step 5, "Test connection" (issue 15): a real sign-in through the IdP in a new window, before the
 * configuration is turned on (or after). The server checks the IdP's answer as a real sign-in's and
 * signs nobody in; this card waits for the report (no longer than the test lives) and shows what the
 * IdP sent (the attributes), the roles it would give, and any problem, with focus on the result.
 */
export function TestCard({ config, sso, roles, oidcRedirectUrl = defaultRoutes.oidcRedirectUrl }: { config: SsoConfiguration; sso: SsoApi; roles: Role[] | 'loading' | null; oidcRedirectUrl?: string }) {
  const t = useT();
  const toError = useErrorText();
  const id = `gh-sso-test-${useId().replace(/:/g, '')}`;
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const resultRef = useRef<HTMLHeadingElement>(null);
  const run = useRef(0);
  const ready = canTest(config);

  // A result (or the end of waiting) takes the focus, so it is announced and read next.
  useEffect(() => {
    if (outcome.kind === 'report' || outcome.kind === 'expired' || outcome.kind === 'error') resultRef.current?.focus();
  }, [outcome]);
  // Leaving the section stops the waiting.
  useEffect(() => () => void (run.current += 1), []);

  async function start() {
    const mine = ++run.current;
    // Opened in the click itself (pop-up blockers allow that), cut from this page before it goes to the IdP.
    const popup = typeof window === 'undefined' ? null : window.open('', '_blank');
    if (popup) popup.opener = null;
    setOutcome({ kind: 'waiting', address: '' });
    try {
      // OIDC: the IdP answers the login box's callback route, as at a real sign-in; it finishes the test there.
      const test = await sso.startTest(config.id, config.type === 'oidc' ? oidcRedirectUri(oidcRedirectUrl, window.location.href) : undefined);
      // Counted on this browser's clock from the answer: the server's clock may differ from it.
      const deadline = localDeadline(test, Date.now());
      if (popup) popup.location.href = test.address;
      setOutcome({ kind: 'waiting', address: test.address });
      const result = await waitForReport(() => sso.testReport(config.id, test.testId), { deadline, cancelled: () => run.current !== mine });
      if (result === 'cancelled') return;
      setOutcome(result === 'expired' ? { kind: 'expired' } : { kind: 'report', report: result });
    } catch (error) {
      popup?.close();
      if (run.current === mine) setOutcome({ kind: 'error', message: toError(error) });
    }
  }

  const roleName = (roleId: string) => (Array.isArray(roles) ? roles.find((r) => r.id === roleId)?.name : undefined) ?? roleId;
  const problemText = (problem: SsoTestProblem) => {
    const values = problem.values.join(', ');
    if (problem.code === 'certificateExpiring' || problem.code === 'certificateExpired') return t.t(`sso.test.problem.${problem.code}`, { date: problem.values[0] ? shortDate(t, problem.values[0]) : '' });
    if (problem.code === 'noEmail' && config.type === 'oidc') return t.t('sso.test.problem.noEmailOidc');
    return t.t(`sso.test.problem.${problem.code}`, { values, count: problem.values.length });
  };
  const waiting = outcome.kind === 'waiting';

  return (
    <section className="gh-ap-sec-card gh-ap-sso-card gh-ap-sso-test" aria-labelledby={`${id}-title`} aria-busy={waiting}>
      <h3 id={`${id}-title`} className="gh-ap-sec-card-title">{t.t('sso.test.title')}</h3>
      <p className="gh-ap-hint">{t.t(config.enabled ? 'sso.test.introOn' : 'sso.test.introOff')}</p>
      {!ready && <p id={`${id}-missing`} className="gh-ap-hint">{t.t(config.type === 'saml' ? 'sso.test.needsIdp' : 'sso.test.oidc')}</p>}
      <div className="gh-ap-sso-test-actions">
        <button type="button" className="gh-ap-button" disabled={!ready || waiting} aria-busy={waiting} aria-describedby={!ready ? `${id}-missing` : undefined} onClick={() => void start()}>
          {waiting && <span className="gh-ap-spinner" aria-hidden="true" />}
          {t.t('sso.test.action')}
        </button>
        {waiting && (
          <button type="button" className="gh-ap-link" onClick={() => { run.current += 1; setOutcome({ kind: 'idle' }); }}>{t.t('common.cancel')}</button>
        )}
      </div>

      {waiting && (
        <div className="gh-ap-sso-test-waiting">
          <p role="status">{t.t('sso.test.waiting')}</p>
          {outcome.address && (
            <p className="gh-ap-hint">
              {t.t('sso.test.blocked')}{' '}
              <a className="gh-ap-link" href={outcome.address} target="_blank" rel="noopener noreferrer">{t.t('sso.test.openAgain')}</a>
            </p>
          )}
          <div className="gh-ap-skeleton-bar" aria-hidden="true" />
          <div className="gh-ap-skeleton-bar gh-ap-skeleton-short" aria-hidden="true" />
          <div className="gh-ap-skeleton-bar" aria-hidden="true" />
        </div>
      )}

      {outcome.kind === 'expired' && (
        <div className="gh-ap-sso-test-result" role="alert">
          <h4 ref={resultRef} tabIndex={-1} className="gh-ap-sso-subtitle">{t.t('sso.test.expiredTitle')}</h4>
          <p>{t.t('sso.test.expired')}</p>
        </div>
      )}
      {outcome.kind === 'error' && (
        <div className="gh-ap-sso-test-result" role="alert">
          <h4 ref={resultRef} tabIndex={-1} className="gh-ap-sso-subtitle">{t.t('sso.test.errorTitle')}</h4>
          <p className="gh-ap-banner gh-ap-banner-error">{outcome.message}</p>
        </div>
      )}
      {outcome.kind === 'report' && <Report idBase={id} report={outcome.report} oidc={config.type === 'oidc'} headingRef={resultRef} problemText={problemText} roleName={roleName} />}
    </section>
  );
}

function Report({ idBase, report, oidc, headingRef, problemText, roleName }: {
  idBase: string;
  report: SsoTestReport;
  /** OIDC: the subject is `sub` and the attributes are the ID token's and UserInfo's claims. */
  oidc: boolean;
  headingRef: RefObject<HTMLHeadingElement>;
  problemText: (problem: SsoTestProblem) => string;
  roleName: (roleId: string) => string;
}) {
  const t = useT();
  const errors = report.problems.filter((p) => p.severity === 'error');
  const warnings = report.problems.filter((p) => p.severity === 'warning');
  const title = report.status === 'failed' ? 'sso.test.failedTitle' : errors.length ? 'sso.test.problemsTitle' : 'sso.test.passedTitle';
  const badge = report.status === 'failed' || errors.length ? 'gh-ap-sso-danger' : warnings.length ? 'gh-ap-sso-warn' : 'gh-ap-sso-ok';
  const mappedRoles = [...new Set([...report.defaultRoleIds, ...report.roleMappings.flatMap((m) => m.roleIds)])];

  return (
    <div className="gh-ap-sso-test-result">
      <div className="gh-ap-sso-test-head">
        <h4 ref={headingRef} tabIndex={-1} className="gh-ap-sso-subtitle">{t.t(title)}</h4>
        <span className={`gh-ap-badge ${badge}`}>{t.t(report.status === 'failed' ? 'sso.test.failed' : 'sso.test.passed')}</span>
      </div>
      {report.status === 'failed' ? (
        <>
          <p>{t.t('sso.test.failedText')}</p>
          <p className="gh-ap-banner gh-ap-banner-error"><span className="gh-ap-mono gh-ap-sso-ltr" dir="ltr">{report.error}</span></p>
        </>
      ) : (
        <>
          {report.problems.length > 0 ? (
            <ul className="gh-ap-sso-test-problems" aria-label={t.t('sso.test.problems')}>
              {[...errors, ...warnings].map((problem) => (
                <li key={problem.code} className={problem.severity === 'error' ? 'gh-ap-sso-test-error' : 'gh-ap-sso-test-warning'}>
                  <span className={`gh-ap-badge ${problem.severity === 'error' ? 'gh-ap-sso-danger' : 'gh-ap-sso-warn'}`}>{t.t(problem.severity === 'error' ? 'sso.test.error' : 'sso.test.warning')}</span>{' '}
                  {problemText(problem)}
                </li>
              ))}
            </ul>
          ) : (
            <p>{t.t('sso.test.noProblems')}</p>
          )}
          <dl className="gh-ap-sso-facts">
            <div><dt>{t.t(oidc ? 'sso.test.subjectOidc' : 'sso.test.subject')}</dt><dd><span className="gh-ap-mono gh-ap-sso-ltr" dir="ltr">{report.subject ?? '—'}</span></dd></div>
            <div><dt>{t.t('sso.test.email')}</dt><dd><span className="gh-ap-sso-ltr" dir="ltr">{report.email ?? '—'}</span></dd></div>
            <div><dt>{t.t('sso.test.name')}</dt><dd>{report.name ?? '—'}</dd></div>
            <div><dt>{t.t('sso.test.roles')}</dt><dd>{mappedRoles.length ? mappedRoles.map(roleName).join(', ') : '—'}</dd></div>
          </dl>
          <p id={`${idBase}-attributes`} className="gh-ap-sso-subtitle">{t.t(oidc ? 'sso.test.claims' : 'sso.test.attributes')}</p>
          <div className="gh-ap-table-wrap">
            <table className="gh-ap-table gh-ap-sso-test-attributes" aria-labelledby={`${idBase}-attributes`}>
              <thead>
                <tr><th scope="col">{t.t(oidc ? 'sso.test.claim' : 'sso.test.attribute')}</th><th scope="col">{t.t('sso.test.values')}</th></tr>
              </thead>
              <tbody>
                {report.attributes.length === 0 ? (
                  <tr><td colSpan={2}>{t.t(oidc ? 'sso.test.noClaims' : 'sso.test.noAttributes')}</td></tr>
                ) : (
                  report.attributes.map((attribute) => (
                    <tr key={attribute.name}>
                      <th scope="row"><span className="gh-ap-mono gh-ap-sso-ltr" dir="ltr">{attribute.name}</span></th>
                      <td><span className="gh-ap-sso-ltr" dir="ltr">{attribute.values.join(', ')}</span></td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
          {report.roleMappings.length > 0 && (
            <p className="gh-ap-hint">{t.t('sso.test.mappingsHit', { groups: report.roleMappings.map((m) => m.group).join(', ') })}</p>
          )}
        </>
      )}
    </div>
  );
}
