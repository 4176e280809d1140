import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicPlan, Subscription } from '@gatehouse/shared/wire';
import { CheckoutView, type CheckoutViewProps } from './checkout-view';
import { checkoutReducer, initialCheckoutState, type CheckoutData } from './checkout-state';
import { checkoutTranslator } from './i18n/catalogs';

afterEach(() => {
  document.body.innerHTML = '';
});

const premium: PublicPlan = { id: 'plan-premium', name: 'Premium', description: 'Everything', slug: 'premium', price: { amount: 10000, currency: 'usd' }, recurringInterval: 'month', trialDays: 14 };
const data: CheckoutData = { plan: premium, subscription: null, paymentMethod: null, publishableKey: 'pk_test_1' };
const loaded = checkoutReducer(initialCheckoutState, { type: 'load', data });

function view(patch: Partial<CheckoutViewProps>) {
  const props: CheckoutViewProps = {
    state: loaded,
    t: checkoutTranslator('en'),
    cardField: <div data-testid="card" />,
    cardReady: true,
    useCardOnFile: true,
    onUseCardOnFile: vi.fn(),
    onConfirm: vi.fn(),
    onRetry: vi.fn(),
    onClose: vi.fn(),
    dialogRef: { current: null },
    ...patch,
  };
  render(<CheckoutView {...props} />);
  return props;
}

describe('CheckoutView', () => {
  it('is a modal dialog labelled by its title, with a busy skeleton while fetching', () => {
    view({ state: initialCheckoutState });
    const dialog = screen.getByRole('dialog', { name: 'Checkout' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.querySelector('[aria-busy="true"]')?.textContent).toContain('Loading the plan…');
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
  });

  it('shows the chosen plan: name, price from minor units per month, trial days, the card field and confirm', () => {
    const props = view({});
    expect(screen.getByText('Premium')).toBeTruthy();
    expect(screen.getByText('$100.00 per month')).toBeTruthy();
    expect(screen.getByText('14 days free trial')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Card' }).contains(screen.getByTestId('card'))).toBe(true);
    fireEvent.submit(screen.getByRole('button', { name: 'Confirm' }).closest('form')!);
    expect(props.onConfirm).toHaveBeenCalledTimes(1);
  });

  it('disables confirm while loading and until the card field is ready', () => {
    view({ state: checkoutReducer(loaded, { type: 'submit' }) });
    const busy = screen.getByRole('button', { name: 'Confirming…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    document.body.innerHTML = '';
    view({ cardReady: false });
    expect((screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('puts a card error under the field (described by it) and a general error apart', () => {
    view({ state: checkoutReducer(loaded, { type: 'error', error: 'Your card was declined.', field: true }) });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Your card was declined.');
    expect(screen.getByRole('group', { name: 'Card' }).getAttribute('aria-describedby')).toBe(alert.id);
    document.body.innerHTML = '';
    view({ state: checkoutReducer(loaded, { type: 'error', error: 'Payment provider not configured' }) });
    expect(screen.getByRole('alert').textContent).toBe('Payment provider not configured');
    expect(screen.getByRole('group', { name: 'Card' }).getAttribute('aria-describedby')).toBeNull();
  });

  it('offers the card on file for a plan change, and asks for no card when the tenant trials this plan with one', () => {
    const onFile = { id: 'pm_1', type: 'card' as const, isDefault: true, last4: '4242', expMonth: 1, expYear: 2030, brand: 'visa', billingDetails: { email: null, address: null } };
    const active: Subscription = { id: 's', externalId: null, planId: 'plan-free', startDate: 0, currentPeriodStart: 0, currentPeriodEnd: 0, status: 'active', cancellation: null, trialEnd: null, externallyManaged: false, paymentMethodId: 'pm_1' };
    const props = view({ state: checkoutReducer(initialCheckoutState, { type: 'load', data: { ...data, subscription: active, paymentMethod: onFile } }) });
    const box = screen.getByRole('checkbox', { name: 'Use the card on file (visa ending in 4242)' });
    expect(screen.queryByRole('group', { name: 'Card' })).toBeNull();
    fireEvent.click(box);
    expect(props.onUseCardOnFile).toHaveBeenCalledWith(false);
    document.body.innerHTML = '';
    view({ state: checkoutReducer(initialCheckoutState, { type: 'load', data: { ...data, subscription: { ...active, planId: premium.id, status: 'trialing' }, paymentMethod: onFile } }) });
    expect(screen.getByText('Your trial continues with the card on file (visa ending in 4242).')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Card' })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('confirmed: announces the plan and the server status, with Done closing', () => {
    const result = { subscription: { id: 's', externalId: 'sub', planId: premium.id, startDate: 0, currentPeriodStart: 0, currentPeriodEnd: 0, status: 'active' as const, cancellation: null, trialEnd: null, externallyManaged: false, paymentMethodId: 'pm' }, paymentMethod: null, latestInvoice: { id: 'i', externalId: 'in', subscriptionId: 's', paymentDate: 0, totalAmount: 100, currency: 'usd', paid: true, receiptNumber: null } };
    const props = view({ state: checkoutReducer(loaded, { type: 'confirmed', result }) });
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('Subscription confirmed');
    expect(status.textContent).toContain('You are on Premium. Status: active.');
    expect(status.textContent).toContain('Latest invoice: $100.00');
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(props.onClose).toHaveBeenCalledTimes(1);
  });

  it('a failed fetch shows the message with Try again; the close button closes', () => {
    const props = view({ state: checkoutReducer(initialCheckoutState, { type: 'error', error: 'Not authorized' }) });
    expect(screen.getByRole('alert').textContent).toBe('Not authorized');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(props.onRetry).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(props.onClose).toHaveBeenCalledTimes(1);
  });

  it('keeps Tab inside: the edge sentinels send focus to the other end', () => {
    view({});
    const dialog = screen.getByRole('dialog');
    const [start, end] = [...dialog.querySelectorAll<HTMLElement>('.gh-co-sentinel')];
    const close = screen.getByRole('button', { name: 'Close' });
    fireEvent.focus(end!, { relatedTarget: screen.getByRole('button', { name: 'Confirm' }) });
    expect(document.activeElement).toBe(close);
    fireEvent.focus(start!, { relatedTarget: close });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Confirm' }));
    // The first Tab after opening (focus on the dialog itself) goes to the first control, not round to the last.
    fireEvent.focus(start!, { relatedTarget: dialog });
    expect(document.activeElement).toBe(close);
  });

  it('speaks Hebrew right to left', () => {
    view({ t: checkoutTranslator('he') });
    const root = screen.getByRole('dialog').parentElement!;
    expect(root.getAttribute('dir')).toBe('rtl');
    expect(root.getAttribute('lang')).toBe('he');
  });
});
