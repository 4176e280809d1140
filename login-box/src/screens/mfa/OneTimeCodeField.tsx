import { Field } from '../../components/Field';

/** A 6-digit one-time code input: numeric keypad, OS/password-manager code autofill, labelled. */
export function OneTimeCodeField({ label, value, onChange, hint, error }: { label: string; value: string; onChange: (value: string) => void; hint?: string; error?: string | null }) {
  return (
    <Field
      label={label}
      name="one-time-code"
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      maxLength={6}
      required
      hint={hint}
      error={error}
      value={value}
      onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, 6))}
    />
  );
}
