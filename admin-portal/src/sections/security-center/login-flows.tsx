import type { Translator } from '../../contract';
import { useT } from '../../i18n/i18n-context';
import type { LoginFlows } from './security-center-api';

/** Whole minutes, hours or days, whichever reads best. */
function duration(t: Translator, seconds: number): string {
  if (seconds % 86_400 === 0) return t.t('securityCenter.duration.days', { count: seconds / 86_400 });
  if (seconds % 3_600 === 0) return t.t('securityCenter.duration.hours', { count: seconds / 3_600 });
  return t.t('securityCenter.duration.minutes', { count: Math.round(seconds / 60) });
}

/** The rows of the panel: each policy that could be read, in words. */
export function loginFlowRows(t: Translator, flows: LoginFlows): { key: string; label: string; value: string; on: boolean }[] {
  const rows: { key: string; label: string; value: string; on: boolean }[] = [];
  if (flows.mfa) rows.push({ key: 'mfa', label: t.t('securityCenter.flows.mfa'), value: t.t(`securityCenter.flows.mfa.${flows.mfa.enforceMFAType}`), on: flows.mfa.enforceMFAType !== 'DontForce' });
  if (flows.lockout) rows.push({ key: 'lockout', label: t.t('securityCenter.flows.lockout'), value: flows.lockout.enabled ? t.t('securityCenter.flows.lockoutOn', { count: flows.lockout.maxAttempts }) : t.t('securityCenter.flows.off'), on: flows.lockout.enabled });
  if (flows.captcha) rows.push({ key: 'captcha', label: t.t('securityCenter.flows.captcha'), value: flows.captcha.enabled ? t.t('securityCenter.flows.captchaOn', { score: flows.captcha.minScore }) : t.t('securityCenter.flows.off'), on: flows.captcha.enabled });
  if (flows.passwordHistory) rows.push({ key: 'passwordHistory', label: t.t('securityCenter.flows.passwordHistory'), value: flows.passwordHistory.enabled ? t.t('securityCenter.flows.historyOn', { count: flows.passwordHistory.historySize }) : t.t('securityCenter.flows.off'), on: flows.passwordHistory.enabled });
  if (flows.sessions) {
    const { sessionIdleTimeoutConfiguration: idle, sessionTimeoutConfiguration: relogin, sessionConcurrentConfiguration: concurrent } = flows.sessions;
    rows.push({ key: 'idle', label: t.t('securityCenter.flows.idle'), value: idle.isActive ? duration(t, idle.timeout) : t.t('securityCenter.flows.off'), on: idle.isActive });
    rows.push({ key: 'relogin', label: t.t('securityCenter.flows.relogin'), value: relogin.isActive ? duration(t, relogin.timeout) : t.t('securityCenter.flows.off'), on: relogin.isActive });
    rows.push({ key: 'concurrent', label: t.t('securityCenter.flows.concurrent'), value: concurrent.isActive ? t.t('securityCenter.flows.concurrentOn', { count: concurrent.maxSessions }) : t.t('securityCenter.flows.off'), on: concurrent.isActive });
  }
  return rows;
}

/** Flag `security-center-show-login-flows`: what protects sign-in right now, from the policies in effect. */
export function LoginFlowsPanel({ flows }: { flows: LoginFlows }) {
  const t = useT();
  const rows = loginFlowRows(t, flows);
  if (rows.length === 0) return <p className="gh-ap-hint">{t.t('securityCenter.flows.unreadable')}</p>;
  return (
    <dl className="gh-ap-sc-flows">
      {rows.map((row) => (
        <div key={row.key} className="gh-ap-sc-flow">
          <dt>{row.label}</dt>
          <dd className={row.on ? 'gh-ap-sc-flow-on' : 'gh-ap-sc-flow-off'}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
