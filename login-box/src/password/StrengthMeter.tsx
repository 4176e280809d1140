/**
 * The strength meter under a new password (sign-up, reset, activation, invitation, change): a bar of
 * four steps and a word for it, with zxcvbn's main warning in the user's language. Its own chunk.
 */
import { useEffect, useState } from 'react';
import { useI18n, type MessageKey } from '../use-i18n';
import { estimateStrength, strengthTopic, type Strength, type StrengthTopic } from '@gatehouse/shared/password-strength';

const LABELS: readonly MessageKey[] = ['strength.0', 'strength.1', 'strength.2', 'strength.3', 'strength.4'];

/** The catalog's sentence for each warning topic. */
const WARNINGS: Record<StrengthTopic, MessageKey> = {
  keyboard: 'strength.warning.keyboard',
  repeat: 'strength.warning.repeat',
  sequence: 'strength.warning.sequence',
  dates: 'strength.warning.dates',
  common: 'strength.warning.common',
  words: 'strength.warning.words',
  personal: 'strength.warning.personal',
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
  const topic = strengthTopic(strength.warning);
  const warning = topic ? WARNINGS[topic] : undefined;
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
