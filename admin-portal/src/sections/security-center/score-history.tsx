import { useId } from 'react';
import type { ScoreHistoryResponse } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';

type Point = ScoreHistoryResponse['points'][number];

const WIDTH = 300;
const HEIGHT = 64;
const PAD = 4;

/** The sparkline's points: x spread over the days shown, y from 100 (top) to 0 (bottom). */
export function sparklinePoints(points: readonly Point[]): string {
  if (points.length === 0) return '';
  const step = points.length > 1 ? (WIDTH - 2 * PAD) / (points.length - 1) : 0;
  return points
    .map((point, index) => {
      const x = points.length > 1 ? PAD + index * step : WIDTH / 2;
      const y = PAD + ((100 - point.score) * (HEIGHT - 2 * PAD)) / 100;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

/**
 * The score's history (issue 12: one point a day, the last 90 days) as an inline SVG sparkline. Its
 * text alternative says where it started, where it is and its range; the figures themselves are in
 * a table behind "Show the figures".
 */
export function ScoreHistory({ points }: { points: readonly Point[] }) {
  const t = useT();
  const summaryId = useId();
  if (points.length === 0) return <p className="gh-ap-hint">{t.t('securityCenter.history.empty')}</p>;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const scores = points.map((p) => p.score);
  const summary = points.length === 1
    ? t.t('securityCenter.history.summaryOne', { score: last.score, day: last.day })
    : t.t('securityCenter.history.summary', { days: points.length, from: first.score, fromDay: first.day, to: last.score, toDay: last.day, low: Math.min(...scores), high: Math.max(...scores) });
  const line = sparklinePoints(points);
  const [lastX, lastY] = line.split(' ').pop()!.split(',');
  return (
    <figure className="gh-ap-sc-history">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="gh-ap-sc-sparkline" role="img" aria-labelledby={summaryId} preserveAspectRatio="none">
        <line x1={PAD} x2={WIDTH - PAD} y1={HEIGHT / 2} y2={HEIGHT / 2} className="gh-ap-sc-sparkline-mid" />
        <polyline points={line} className="gh-ap-sc-sparkline-line" />
        {/* A zero-length stroke with round caps: a round dot however the chart is stretched (a circle would turn oval). */}
        <path d={`M ${lastX} ${lastY} h 0`} className="gh-ap-sc-sparkline-dot" />
      </svg>
      <figcaption id={summaryId} className="gh-ap-hint">{summary}</figcaption>
      <details className="gh-ap-sc-history-figures">
        <summary>{t.t('securityCenter.history.showFigures')}</summary>
        <div className="gh-ap-sc-history-table">
          <table className="gh-ap-table">
            <caption className="gh-ap-visually-hidden">{t.t('securityCenter.history.caption')}</caption>
            <thead><tr><th scope="col">{t.t('securityCenter.history.day')}</th><th scope="col">{t.t('securityCenter.score.label')}</th></tr></thead>
            <tbody>
              {[...points].reverse().map((point) => (
                <tr key={point.day}><th scope="row">{point.day}</th><td data-label={t.t('securityCenter.score.label')}>{point.score}</td></tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
