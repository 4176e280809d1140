/**
 * The strength meter under the new password of "Change password": a bar of four steps and a word
 * for it, with zxcvbn's main warning in the portal's language. A chunk of its own (zxcvbn and the
 * language's word list load only when the dialog opens), like the login box's.
 */
import { useEffect, useState } from 'react';
import { estimateStrength, strengthTopic, type Strength, type StrengthTopic } from '@gatehouse/shared/password-strength';
import { useT } from '../../i18n/i18n-context';

const LABELS = ['privacy.strength.0', 'privacy.strength.1', 'privacy.strength.2', 'privacy.strength.3', 'privacy.strength.4'] as const;
const WARNINGS: Record<StrengthTopic, string> = {
  keyboard: 'privacy.strength.warning.keyboard',
  repeat: 'privacy.strength.warning.repeat',
  sequence: 'privacy.strength.warning.sequence',
  dates: 'privacy.strength.warning.dates',
  common: 'privacy.strength.warning.common',
  words: 'privacy.strength.warning.words',
  personal: 'privacy.strength.warning.personal',
};

export default function StrengthMeter({ password, userInputs }: { password: string; userInputs: readonly string[] }) {
  const t = useT();
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
      void estimateStrength(t.locale, password, inputs.split('\n')).then((s) => live && setStrength(s), () => undefined);
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [password, inputs, t.locale]);

  if (!password || !strength) return <div className="gh-ap-strength" data-score="none" aria-hidden="true"><span className="gh-ap-strength-bar" /></div>;
  const topic = strengthTopic(strength.warning);
  return (
    <div className="gh-ap-strength" data-score={strength.score}>
      <span className="gh-ap-strength-bar" aria-hidden="true">
        <span />
      </span>
      <p className="gh-ap-hint" aria-live="polite">
        {t.t('privacy.strength.label', { strength: t.t(LABELS[strength.score]) })}
        {topic ? ` ${t.t(WARNINGS[topic])}` : strength.score < 3 ? ` ${t.t('privacy.strength.suggestion')}` : ''}
      </p>
    </div>
  );
}
