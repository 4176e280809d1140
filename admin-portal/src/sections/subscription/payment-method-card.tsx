import { useId } from 'react';
import type { PaymentMethod } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { RuleButton } from './current-plan';
import type { Rule } from './rules';

const BRANDS: Readonly<Record<string, string>> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover', diners: 'Diners Club', jcb: 'JCB', unionpay: 'UnionPay' };

/** A card brand as people write it ("visa" -> "Visa"); an unknown brand as the provider named it. */
export function brandName(brand: string | null): string | null {
  if (!brand) return null;
  return BRANDS[brand.toLowerCase()] ?? brand;
}

/**
 * The default payment method (seed 001 section 3 "Payment method"): brand, the last four digits and
 * the expiry; "Replace card" opens the checkout for the current plan, where a new card is collected.
 */
export function PaymentMethodCard({ method, replace, onReplace, busy }: { method: PaymentMethod | null; replace: Rule; onReplace: () => void; busy: boolean }) {
  const t = useT();
  const ids = useId();
  const expiry = method?.expMonth && method.expYear ? `${String(method.expMonth).padStart(2, '0')}/${method.expYear}` : null;
  return (
    <div className="gh-ap-sub-card gh-ap-sub-method">
      {method ? (
        <div className="gh-ap-sub-method-line">
          <svg className="gh-ap-sub-card-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="2.5" y="5" width="19" height="14" rx="2" /><path d="M2.5 9.5h19M6 15h4" /></svg>
          <div>
            <p className="gh-ap-sub-method-name">
              {method.type === 'card'
                ? t.t('subscription.paymentMethod.card', { brand: brandName(method.brand) ?? t.t('subscription.paymentMethod.cardGeneric'), last4: method.last4 ?? '····' })
                : t.t('subscription.paymentMethod.unknown')}
            </p>
            {expiry && <p className="gh-ap-hint">{t.t('subscription.paymentMethod.expires', { expiry })}</p>}
          </div>
        </div>
      ) : (
        <p className="gh-ap-sub-empty">{t.t('subscription.paymentMethod.none')}</p>
      )}
      <RuleButton rule={replace} id={`${ids}-replace`} secondary busy={busy} label={t.t(method ? 'subscription.paymentMethod.replace' : 'subscription.paymentMethod.add')} onClick={onReplace} />
    </div>
  );
}
