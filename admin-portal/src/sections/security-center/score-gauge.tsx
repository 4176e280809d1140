import { useId } from 'react';
import type { SecurityLevel } from '@gatehouse/shared/admin-paths';
import { useT } from '../../i18n/i18n-context';

/** Half a circle of radius 40 around (50, 50): the gauge's track, drawn left to right. */
const ARC = 'M 10 50 A 40 40 0 0 1 90 50';
const ARC_LENGTH = Math.PI * 40;

/**
 * The security score (0..100) and its level as a meter: screen readers hear "72 of 100, Strong";
 * the half-circle and its colour are decoration over the same numbers.
 */
export function ScoreGauge({ score, level }: { score: number; level: SecurityLevel }) {
  const t = useT();
  const labelId = useId();
  const clamped = Math.max(0, Math.min(100, Math.round(score)));
  const levelText = t.t(`securityCenter.level.${level}`);
  return (
    <div
      className={`gh-ap-sc-gauge gh-ap-sc-level-${level.toLowerCase()}`}
      role="meter"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      aria-valuetext={t.t('securityCenter.score.valueText', { score: clamped, level: levelText })}
      aria-labelledby={labelId}
    >
      <svg viewBox="0 0 100 56" aria-hidden="true" focusable="false" className="gh-ap-sc-gauge-art">
        <path d={ARC} className="gh-ap-sc-gauge-track" />
        <path d={ARC} className="gh-ap-sc-gauge-value" strokeDasharray={`${(ARC_LENGTH * clamped) / 100} ${ARC_LENGTH}`} />
      </svg>
      <p id={labelId} className="gh-ap-sc-gauge-label">{t.t('securityCenter.score.label')}</p>
      {/* "62/100" reads the same in every language, right-to-left ones included. */}
      <p className="gh-ap-sc-gauge-number" aria-hidden="true" dir="ltr">
        <span className="gh-ap-sc-gauge-score">{clamped}</span>
        <span className="gh-ap-sc-gauge-max">/100</span>
      </p>
      <p className="gh-ap-sc-gauge-level" aria-hidden="true">{levelText}</p>
    </div>
  );
}
