import { useId, useState, type FormEvent } from 'react';
import type { BillingDetailsBody, PaymentMethod } from '@gatehouse/shared/wire';
import type { Translator } from '../../contract';
import { errorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { TextField } from '../dialogs/text-field';

type AddressField = 'line1' | 'line2' | 'city' | 'state' | 'postalCode' | 'country';
export type BillingField = 'email' | AddressField;
export type BillingValues = Record<BillingField, string>;

const ADDRESS: readonly AddressField[] = ['line1', 'line2', 'city', 'state', 'postalCode', 'country'];
/** The wire's limits (BillingAddress in shared/src/wire/billing/billing.ts). */
const MAX: Readonly<Record<BillingField, number>> = { email: 254, line1: 200, line2: 200, city: 100, state: 100, postalCode: 20, country: 2 };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form's values from a payment method's billing details (empty strings for what is not set). */
export function valuesOf(method: PaymentMethod): BillingValues {
  const address = method.billingDetails.address ?? {};
  return {
    email: method.billingDetails.email ?? '',
    line1: address.line1 ?? '',
    line2: address.line2 ?? '',
    city: address.city ?? '',
    state: address.state ?? '',
    postalCode: address.postalCode ?? '',
    country: address.country ?? '',
  };
}

/** What is wrong with each field, in the portal's language; empty when the form may be sent. */
export function validateBillingDetails(t: Translator, values: BillingValues): Partial<Record<BillingField, string>> {
  const problems: Partial<Record<BillingField, string>> = {};
  const email = values.email.trim();
  if (!email) problems.email = t.t('subscription.details.emailMissing');
  else if (!EMAIL.test(email) || email.length > MAX.email) problems.email = t.t('subscription.details.emailInvalid');
  for (const field of ADDRESS) {
    if (field !== 'country' && values[field].trim().length > MAX[field]) problems[field] = t.t('subscription.details.tooLong', { max: MAX[field] });
  }
  const country = values.country.trim();
  if (country && !/^[A-Za-z]{2}$/.test(country)) problems.country = t.t('subscription.details.countryInvalid');
  return problems;
}

/** The PATCH body (seed 001 section 7: id, email, address); blank address fields are sent as null. */
export function billingDetailsBody(id: string, values: BillingValues): BillingDetailsBody {
  const address = Object.fromEntries(ADDRESS.map((field) => [field, values[field].trim() ? (field === 'country' ? values[field].trim().toUpperCase() : values[field].trim()) : null]));
  return { id, email: values.email.trim(), address };
}

/**
 * The billing details of the default payment method (seed 001 section 7: PATCH with id, email,
 * address): each field says what is wrong with it before anything is sent; a server refusal shows
 * its message and keeps what was typed. Readers see the fields view-only.
 */
export function BillingDetailsForm({ method, canWrite, save }: { method: PaymentMethod; canWrite: boolean; save: (body: BillingDetailsBody) => Promise<void> }) {
  const t = useT();
  const ids = useId();
  const [values, setValues] = useState<BillingValues>(() => valuesOf(method));
  const [problems, setProblems] = useState<Partial<Record<BillingField, string>>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateBillingDetails(t, values);
    setProblems(found);
    setSaved(false);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      await save(billingDetailsBody(method.id, values));
      setSaved(true);
    } catch (thrown) {
      setError(errorText(t, thrown));
    } finally {
      setBusy(false);
    }
  }

  const field = (name: BillingField, autoComplete: string, type: 'text' | 'email' = 'text') => (
    <TextField
      id={`${ids}-${name}`}
      label={t.t(`subscription.details.${name}`)}
      value={values[name]}
      type={type}
      autoComplete={autoComplete}
      busy={busy || !canWrite}
      problem={problems[name]}
      onChange={(value) => {
        setValues((current) => ({ ...current, [name]: value }));
        setProblems((current) => ({ ...current, [name]: undefined }));
        setSaved(false);
      }}
    />
  );

  return (
    <form className="gh-ap-form gh-ap-sub-details" onSubmit={submit} noValidate aria-label={t.t('subscription.details.title')}>
      {field('email', 'billing email', 'email')}
      <div className="gh-ap-sub-grid">
        {field('line1', 'billing address-line1')}
        {field('line2', 'billing address-line2')}
        {field('city', 'billing address-level2')}
        {field('state', 'billing address-level1')}
        {field('postalCode', 'billing postal-code')}
        {field('country', 'billing country')}
      </div>
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      {canWrite && (
        <div className="gh-ap-actions">
          <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('subscription.details.save')}
          </button>
          {saved && <p className="gh-ap-status" role="status">{t.t('subscription.details.saved')}</p>}
        </div>
      )}
    </form>
  );
}
