/**
 * The strength meter under a new password (sign-up, reset, activation, invitation, change): a bar of
 * four steps and a word for it, with zxcvbn's main warning in the user's language. Its own chunk.
 */
import { useEffect, useState } from 'react';
import { useI18n, type MessageKey } from '../use-i18n';
import { estimateStrength, type Strength } from './zxcvbn';

const LABELS: readonly MessageKey[] = ['strength.0', 'strength.1', 'strength.2', 'strength.3', 'strength.4'];

/** zxcvbn's warning keys, grouped into the catalog's few sentences. */
const WARNINGS: Partial<Record<string, MessageKey>> = {
  straightRow: 'strength.warning.keyboard',
  keyPattern: 'strength.warning.keyboard',
  simpleRepeat: 'strength.warning.repeat',
  extendedRepeat: 'strength.warning.repeat',
  sequences: 'strength.warning.sequence',
  recentYears: 'strength.warning.dates',
  dates: 'strength.warning.dates',
  topTen: 'strength.warning.common',
  topHundred: 'strength.warning.common',
  common: 'strength.warning.common',
  similarToCommon: 'strength.warning.common',
  pwned: 'strength.warning.common',
  wordByItself: 'strength.warning.words',
  namesByThemselves: 'strength.warning.words',
  commonNames: 'strength.warning.words',
  userInputs: 'strength.warning.personal',
};

export default function StrengthMeter({ password, userInputs }: { password: string; userInputs: readonly string[] }) {
  const { t, locale } = useI18n();
  const [strength, setStrength] = useState<Strength | null>(null);
  const inputs = userInputs.join('\n');

  useEffect(() => {
    if (!password) {
      setStrength(null);
      return;
    }
    let live = true;
    // Debounced: one estimate once typing pauses, not one per key.
    const timer = setTimeout(() => {
      void estimateStrength(locale, password, inputs.split('\n')).then((s) => live && setStrength(s), () => undefined);
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [password, inputs, locale]);

  if (!password || !strength) return <div className="gh-strength" data-score="none" aria-hidden="true"><span className="gh-strength-bar" /></div>;
  const warning = WARNINGS[strength.warning];
  return (
    <div className="gh-strength" data-score={strength.score}>
      <span className="gh-strength-bar" aria-hidden="true">
        <span />
      </span>
      <p className="gh-hint" aria-live="polite">
        {t('strength.label', { strength: t(LABELS[strength.score]!) })}
        {warning ? ` ${t(warning)}` : strength.score < 3 ? ` ${t('strength.suggestion')}` : ''}
      </p>
    </div>
  );
}
