import { Field } from '../../../components/Field';
import { useI18n } from '../../../use-i18n';

/** A mobile number in international format: telephone keypad, the browser's saved number offered (autocomplete tel). */
export function PhoneNumberField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const { t } = useI18n();
  return (
    <Field
      label={label}
      name="phone"
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      required
      placeholder="+44 20 7946 0958"
      hint={t('field.phoneNumber.hint')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
