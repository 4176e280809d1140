import type { SecurityCenterAction } from '@gatehouse/shared/admin-paths';
import type { Recommendation } from '@gatehouse/shared/wire';
import { DEFAULT_LOCALE } from '../../contract';
import type { FieldVisibility } from '../../options';
import { useT } from '../../i18n/i18n-context';

/** Where each "adjust" action opens the Security section: its tab and setting (issue 12). */
export const ACTION_TARGETS: Readonly<Partial<Record<SecurityCenterAction, string>>> = {
  ADJUST_FORCE_RELOGIN: 'sessionManagement:forceRelogin',
  ADJUST_MAX_CONCURRENT_SESSIONS: 'sessionManagement:maxConcurrentSessions',
  ADJUST_IDLE_TIMEOUT: 'sessionManagement:idleTimeout',
};

/**
 * The security center's recommendations, most severe first as the server orders them: severity,
 * category, what to do, the points it adds, and the action that does it, when there is one.
 */
export function Recommendations({ items, resetMode, adjustMode, onAction }: {
  items: readonly Recommendation[];
  /** How the breached-password reset is offered (it needs the write permission). */
  resetMode: FieldVisibility;
  /** How the "adjust" actions (which open the Security section) are offered. */
  adjustMode: FieldVisibility;
  onAction: (action: SecurityCenterAction, recommendation: Recommendation) => void;
}) {
  const t = useT();
  if (items.length === 0) return <p className="gh-ap-sc-empty">{t.t('securityCenter.recommendations.none')}</p>;
  const english = t.locale === DEFAULT_LOCALE;
  return (
    <ul className="gh-ap-sc-recommendations">
      {items.map((item) => {
        const mode = item.action === 'SEND_RESET_BREACHED_PASSWORD_EMAIL' ? resetMode : adjustMode;
        return (
          <li key={item.code} className={`gh-ap-sc-recommendation gh-ap-sc-severity-${item.severity.toLowerCase()}`}>
            <div className="gh-ap-sc-recommendation-head">
              <span className="gh-ap-sc-severity">{t.t(`securityCenter.severity.${item.severity}`)}</span>
              <span className="gh-ap-badge">{t.t(`securityCenter.category.${item.category}`)}</span>
              {item.points > 0 && <span className="gh-ap-sc-points">{t.t('securityCenter.recommendations.points', { points: item.points })}</span>}
            </div>
            <h4 className="gh-ap-sc-recommendation-title">{t.t(`securityCenter.recommendation.${item.code}`)}</h4>
            {/* The server's sentence carries the tenant's figures; it is English, so outside English it says so (lang) and keeps its own direction. */}
            <p className="gh-ap-sc-recommendation-text" lang={english ? undefined : 'en'} dir={english ? undefined : 'auto'}>{item.description}</p>
            {item.affectedUsers !== undefined && <p className="gh-ap-hint">{t.t('securityCenter.recommendations.affected', { count: item.affectedUsers })}</p>}
            {item.action && mode !== 'hidden' && (
              <div className="gh-ap-sc-recommendation-actions">
                <button
                  type="button"
                  className={item.action === 'SEND_RESET_BREACHED_PASSWORD_EMAIL' ? 'gh-ap-button' : 'gh-ap-button-secondary'}
                  disabled={mode !== 'editable'}
                  onClick={() => onAction(item.action!, item)}
                >
                  {t.t(`securityCenter.action.${item.action}`)}
                </button>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
