import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '@gatehouse/shared';
import { BillingPaths } from '@gatehouse/shared/admin-paths';
import { createFetchStub, json } from '../../shared/src/testing/fetch-stub';
import { CheckoutDialog } from './checkout-dialog';
import { checkoutTranslator } from './i18n/catalogs';

afterEach(() => {
  document.body.innerHTML = '';
});

// The real API client over a server that has no billing configured: the dialog settles on the seed's error.
function dialogWithoutBilling(onClose: () => void) {
  const stub = createFetchStub({
    [`GET ${BillingPaths.vendorPublicConfiguration}`]: () => json({ publishableKey: null }),
    [`GET ${BillingPaths.plan.replace('{id}', 'p1')}`]: () => json({ id: 'p1', name: 'Premium', description: '', slug: 'premium', price: { amount: 100, currency: 'usd' }, recurringInterval: 'month' }),
    [`GET ${BillingPaths.managedSubscriptions}`]: () => json([]),
    [`GET ${BillingPaths.paymentMethods}`]: () => json([]),
  });
  const { api } = createGatehouse({ baseUrl: 'https://id.example.com', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', navigate: () => undefined, storage: null });
  const host = document.createElement('div');
  document.body.append(host);
  render(<CheckoutDialog api={api} planId="p1" t={checkoutTranslator('en')} domElement={host} onClose={onClose} />, { container: host });
}

describe('CheckoutDialog', () => {
  it("opens with focus inside, fetches, and shows 'Payment provider not configured' without a publishable key", async () => {
    dialogWithoutBilling(() => undefined);
    const dialog = screen.getByRole('dialog', { name: 'Checkout' });
    expect(document.activeElement).toBe(dialog);
    expect((await screen.findByRole('alert')).textContent).toBe('Payment provider not configured');
  });

  it('Escape closes it and stops there, as does Tab, so a dialog below (the portal) neither closes nor takes focus back', async () => {
    const onClose = vi.fn();
    dialogWithoutBilling(onClose);
    await screen.findByRole('alert');
    const below = vi.fn();
    document.addEventListener('keydown', below);
    try {
      const dialog = screen.getByRole('dialog');
      act(() => void fireEvent.keyDown(screen.getByRole('button', { name: 'Try again' }), { key: 'Tab' }));
      act(() => void fireEvent.keyDown(dialog, { key: 'Escape' }));
      expect(onClose).toHaveBeenCalledTimes(1);
      expect(below).not.toHaveBeenCalled();
      act(() => void fireEvent.keyDown(dialog, { key: 'a' }));
      expect(below).toHaveBeenCalledTimes(1);
      // Shift+Tab from the dialog itself (where focus is when it opens) wraps to its last control.
      act(() => void fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true }));
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' }));
    } finally {
      document.removeEventListener('keydown', below);
    }
  });
});
