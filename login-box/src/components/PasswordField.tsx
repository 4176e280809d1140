import { lazy, Suspense, useId, useState, type InputHTMLAttributes } from 'react';
import type { PasswordConfig } from '@gatehouse/shared';
import { useI18n } from '../use-i18n';
import { Field } from './Field';
import { checkPolicy } from './password-policy';

// Its own chunk with @zxcvbn-ts and one language's dictionary: only password-choosing screens load it.
const StrengthMeter = lazy(() => import('../password/StrengthMeter'));

interface PasswordFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange'> {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
  hint?: string;
  /** Choosing a password: the policy's rules are listed under the field, met ones ticked. */
  policy?: PasswordConfig | null;
  /** Choosing a password: the strength meter (zxcvbn), with what the user typed elsewhere as hints. */
  strength?: boolean;
  userInputs?: readonly string[];
}

/** A password input with a show/hide toggle; for a new password also the policy up front and the strength meter. */
export function PasswordField({ label, value, onChange, error, hint, policy, strength = false, userInputs = [], ...input }: PasswordFieldProps) {
  const { t } = useI18n();
  const [shown, setShown] = useState(false);
  const id = useId();
  const rulesId = `${id}-rules`;
  const check = policy ? checkPolicy(value, policy) : null;
  const rules = policy
    ? [
        { key: 'length', met: check!.length, text: t('password.rule.minLength', { min: policy.minLength }) },
        ...(policy.minOptionalTestsToPass > 0 ? [{ key: 'classes', met: check!.classes >= policy.minOptionalTestsToPass || check!.passphrase, text: t('password.rule.classes', { count: policy.minOptionalTestsToPass }) }] : []),
        ...(policy.allowPassphrases && policy.minOptionalTestsToPass > 0 ? [{ key: 'phrase', met: check!.passphrase, text: t('password.rule.passphrase', { min: policy.minPhraseLength }) }] : []),
      ]
    : [];
  const toggle = (
    <button type="button" className="gh-reveal" aria-controls={id} aria-pressed={shown} aria-label={shown ? t('password.hide') : t('password.show')} onClick={() => setShown((s) => !s)}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
        <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
        {shown ? <path d="M4 4l16 16" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /> : null}
      </svg>
    </button>
  );
  return (
    <Field
      {...input}
      id={id}
      label={label}
      type={shown ? 'text' : 'password'}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      hint={hint}
      addon={toggle}
      autoCapitalize="off"
      autoCorrect="off"
      spellCheck={false}
      describedBy={rules.length ? rulesId : undefined}
    >
      {rules.length ? (
        <ul id={rulesId} className="gh-rules" aria-label={t('password.rules')}>
          {rules.map((rule) => (
            <li key={rule.key} data-met={rule.met ? 'true' : undefined}>
              <span className="gh-rule-mark" aria-hidden="true" />
              {rule.text}
            </li>
          ))}
        </ul>
      ) : null}
      {strength ? (
        <Suspense fallback={null}>
          <StrengthMeter password={value} userInputs={userInputs} />
        </Suspense>
      ) : null}
    </Field>
  );
}
