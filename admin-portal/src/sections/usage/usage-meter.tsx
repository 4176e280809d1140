import { useId } from 'react';
import { useT } from '../../i18n/i18n-context';

/** How close a use is to its limit: under 80 % is fine, from 80 % near, at the limit full, beyond it over. Unlimited is always fine. */
export type UsageLevel = 'fine' | 'near' | 'full' | 'over';

export function usageLevel(used: number, limit: number | null): UsageLevel {
  if (limit === null) return 'fine';
  if (used > limit) return 'over';
  if (used === limit) return 'full';
  return limit > 0 && used / limit >= 0.8 ? 'near' : 'fine';
}

const WARNING: Readonly<Record<Exclude<UsageLevel, 'fine'>, string>> = { near: 'usage.near', full: 'usage.atLimit', over: 'usage.overLimit' };

/**
 * One limit as a meter (role meter, its figures read with it): "7 of 10 used", the bar filled to
 * match; an unlimited one says so and draws no bar. Near or at the limit it says so, and offers
 * `onUpgrade` (the Subscription section) when given.
 */
export function UsageMeter({ name, used, limit, onUpgrade }: { name: string; used: number; limit: number | null; onUpgrade?: () => void }) {
  const t = useT();
  const ids = useId();
  const level = usageLevel(used, limit);
  const share = limit === null || limit <= 0 ? (used > 0 ? 1 : 0) : Math.min(1, used / limit);
  return (
    <li className="gh-ap-usage-row">
      <div className="gh-ap-usage-line">
        <span id={`${ids}-name`} className="gh-ap-usage-name">{name}</span>
        <span className="gh-ap-usage-figure">{limit === null ? t.t('usage.unlimited', { used }) : t.t('usage.ofLimit', { used, limit })}</span>
      </div>
      {limit !== null && (
        <div
          role="meter"
          className={`gh-ap-meter gh-ap-meter-${level}`}
          aria-labelledby={`${ids}-name`}
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={Math.min(used, limit)}
          aria-valuetext={t.t('usage.meterText', { used, limit })}
        >
          <div className="gh-ap-meter-fill" style={{ width: `${Math.round(share * 100)}%` }} />
        </div>
      )}
      {level !== 'fine' && (
        <p className="gh-ap-usage-warn">
          {t.t(WARNING[level])}{' '}
          {onUpgrade && <button type="button" className="gh-ap-link" onClick={onUpgrade}>{t.t('usage.upgrade')}</button>}
        </p>
      )}
    </li>
  );
}
