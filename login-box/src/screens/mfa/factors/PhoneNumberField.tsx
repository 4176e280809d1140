import { Field } from '../../../components/Field';

/** A mobile number in international format: telephone keypad, the browser's saved number offered (autocomplete tel). */
export function PhoneNumberField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <Field
      label={label}
      name="phone"
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      required
      placeholder="+44 20 7946 0958"
      hint="International format: + and the country code first."
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
