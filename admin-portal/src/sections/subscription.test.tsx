import { act, cleanup, fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BILLING_CHANGED_EVENT } from '@gatehouse/shared';
import { BillingErrorCodes, BillingPaths } from '@gatehouse/shared/admin-paths';
import type { Invoice, PaymentMethod, PublicPlan, Subscription, TenantBillingConfiguration } from '@gatehouse/shared/wire';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import { recordingApi, type Failure } from '../test/section-harness';
import SubscriptionSection from './subscription';

const DAY = 86_400_000;
const PERIOD_END = Date.UTC(2026, 11, 27);
const premium: PublicPlan = { id: 'premium', name: 'Premium', description: 'For growing teams', slug: 'premium', price: { amount: 10000, currency: 'usd' }, recurringInterval: 'month', seatLimit: 20, features: [{ key: 'sso', name: 'Single sign-on', limit: null }] };
const free: PublicPlan = { id: 'free', name: 'Free', description: '', slug: 'free', price: { amount: 0, currency: 'usd' }, recurringInterval: 'month', seatLimit: 3 };
const enterprise: PublicPlan = { id: 'enterprise', name: 'Enterprise', description: '', slug: 'enterprise', price: { amount: 50000, currency: 'usd' }, recurringInterval: 'month', seatLimit: null };

function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return { id: 'sub-1', externalId: 'sub_ext', planId: 'premium', startDate: PERIOD_END - 30 * DAY, currentPeriodStart: PERIOD_END - 30 * DAY, currentPeriodEnd: PERIOD_END, status: 'active', cancellation: null, trialEnd: null, externallyManaged: false, paymentMethodId: 'pm-1', ...overrides };
}
const card: PaymentMethod = { id: 'pm-1', type: 'card', isDefault: true, last4: '4242', expMonth: 4, expYear: 2031, brand: 'visa', billingDetails: { email: 'billing@example.com', address: { line1: '1 Main St', city: 'Springfield', country: 'US' } } };
const invoice: Invoice = { id: 'inv-1', externalId: 'in_1', subscriptionId: 'sub-1', paymentDate: Date.UTC(2026, 10, 27), totalAmount: 100, currency: 'usd', paid: true, receiptNumber: '1234-5678' };

interface World {
  plans?: PublicPlan[];
  subscriptions?: Subscription[];
  configuration?: Partial<TenantBillingConfiguration>;
  providers?: Array<{ id: string; providerType: 'Stripe'; status: '0' | '1' }>;
  invoices?: Invoice[];
  methods?: PaymentMethod[];
}

/** The billing API as the server answers it; `world` may change between calls (a cancel, a renew). */
function billingApi(world: World, failures: Failure[] = []) {
  const state = { plans: [premium, free, enterprise], subscriptions: [subscription()], providers: [{ id: 'stripe', providerType: 'Stripe' as const, status: '1' as const }], invoices: [invoice], methods: [card], ...world };
  const configuration = { tenantId: 'tenant-1', allowPlanDowngrade: false, allowPlanCancellation: true, trialEndOption: 'change_to_default' as const, defaultPlanId: 'free', ...world.configuration };
  const pdf = new Blob(['%PDF-1.4 invoice'], { type: 'application/pdf' });
  const recorded = recordingApi((method, path) => {
    if (method === 'GET' && path === BillingPaths.paymentProviders) return state.providers;
    if (method === 'GET' && path === BillingPaths.plans) return state.plans;
    if (method === 'GET' && path === BillingPaths.managedSubscriptions) return state.subscriptions;
    if (method === 'GET' && path === BillingPaths.tenantConfiguration) return configuration;
    if (method === 'GET' && path === BillingPaths.summary.replace('{tenantId}', 'tenant-1')) return { currentPlanId: state.subscriptions[0]?.planId ?? 'free', externallyManaged: false, paymentMethodId: 'pm-1' };
    if (method === 'GET' && path === BillingPaths.invoices) return state.invoices;
    if (method === 'GET' && path === BillingPaths.paymentMethods) return state.methods;
    if (method === 'GET' && path === BillingPaths.invoicePdf.replace('{id}', 'inv-1')) return pdf;
    if (method === 'PUT' && path === BillingPaths.cancelSubscription.replace('{id}', 'sub-1')) {
      state.subscriptions = [{ ...state.subscriptions[0]!, cancellation: { policy: 'atPeriodEnd' } }];
      return state.subscriptions[0];
    }
    if (method === 'PUT' && path === BillingPaths.renewSubscription.replace('{id}', 'sub-1')) {
      state.subscriptions = [{ ...state.subscriptions[0]!, cancellation: null }];
      return state.subscriptions[0];
    }
    if (method === 'PATCH') return state.methods[0];
    throw new Error(`unexpected ${method} ${path}`);
  }, failures);
  return { ...recorded, state };
}

const WRITER = ['fe.subscriptions.read', 'fe.subscriptions.write'];

function open(world: World = {}, { permissions = WRITER, withCheckout = true, failures = [], callbacks }: { permissions?: string[]; withCheckout?: boolean; failures?: Failure[]; callbacks?: Record<string, unknown> } = {}) {
  const billing = billingApi(world, failures);
  const { domElement, root } = shadowMountPoint();
  const user = makeUser({ permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const store = createTestStore(user);
  const shown: Array<{ planId: string }> = [];
  const checkout = withCheckout ? { show: async (options: { planId: string }) => void shown.push(options), hide: () => {} } : undefined;
  render(
    <SubscriptionSection title="Subscription" headingId="sub-heading" user={user} snapshot={store.getSnapshot()} store={store} api={billing.api} options={readAdminPortalOptions(callbacks ? { callbacks } : undefined)} checkout={checkout} />,
    { container: domElement },
  );
  return { view: within(domElement), root, calls: billing.calls, state: billing.state, shown };
}

const reasonOf = (button: HTMLElement) => {
  const id = button.getAttribute('aria-describedby');
  return id ? (button.getRootNode() as ShadowRoot).getElementById(id)?.textContent : null;
};

afterEach(() => {
  // Unmounted, not only removed: a section left mounted would still answer the billing-changed event of a later test.
  cleanup();
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('subscription section', () => {
  it('shows the current plan with its status and period end, and the plans priced from minor units per month', async () => {
    const { view } = open();
    const current = await view.findByRole('group', { name: 'Current plan' });
    expect(within(current).getByText('Premium')).toBeTruthy();
    expect(within(current).getByText('$100.00 / month')).toBeTruthy();
    expect(within(current).getByText('Active')).toBeTruthy();
    expect(within(current).getByText('Renews on')).toBeTruthy();
    expect(within(current).getByText('Dec 27, 2026')).toBeTruthy();
    const cards = view.getAllByRole('listitem').filter((item) => item.classList.contains('gh-ap-sub-plan'));
    expect(cards.map((card) => card.querySelector('h4')?.textContent)).toEqual(['Premium', 'Free', 'Enterprise']);
    expect(within(cards[1]!).getByText('$0.00 / month')).toBeTruthy();
    expect(within(cards[2]!).getByText('$500.00 / month')).toBeTruthy();
    expect(within(cards[0]!).getByText('Current plan')).toBeTruthy();
    expect(within(cards[0]!).queryByRole('button')).toBeNull();
    expect(within(cards[0]!).getByText('20 seats')).toBeTruthy();
    expect(within(cards[2]!).getByText('Unlimited seats')).toBeTruthy();
  });

  it('enables Cancel for an active subscription the vendor lets cancel, and disables Renew with its reason', async () => {
    const { view } = open();
    const cancel = await view.findByRole('button', { name: 'Cancel subscription' });
    expect((cancel as HTMLButtonElement).disabled).toBe(false);
    const renew = view.getByRole('button', { name: 'Renew subscription' });
    expect((renew as HTMLButtonElement).disabled).toBe(true);
    expect(reasonOf(renew)).toBe('Renewing is for a subscription whose cancellation is pending.');
  });

  it('refuses Cancel with the reason when the vendor does not allow cancellation, when not active, and when billing is externally managed', async () => {
    let { view } = open({ configuration: { allowPlanCancellation: false } });
    let cancel = await view.findByRole('button', { name: 'Cancel subscription' });
    expect((cancel as HTMLButtonElement).disabled).toBe(true);
    expect(reasonOf(cancel)).toBe('Your provider does not allow canceling the subscription here. Contact them to cancel.');
    document.body.innerHTML = '';

    ({ view } = open({ subscriptions: [subscription({ status: 'trialing', trialEnd: PERIOD_END })] }));
    cancel = await view.findByRole('button', { name: 'Cancel subscription' });
    expect(reasonOf(cancel)).toBe('Only an active subscription can be canceled.');
    expect(view.getByText('Trial ends')).toBeTruthy();
    document.body.innerHTML = '';

    ({ view } = open({ subscriptions: [subscription({ externallyManaged: true, cancellation: { policy: 'atPeriodEnd' } })] }));
    cancel = await view.findByRole('button', { name: 'Cancel subscription' });
    expect(reasonOf(cancel)).toBe('Billing is externally managed');
    expect(reasonOf(view.getByRole('button', { name: 'Renew subscription' }))).toBe('Billing is externally managed');
  });

  it('cancels at period end after confirming, reloads the subscription, and then offers Renew, which undoes it', async () => {
    const results: boolean[] = [];
    const { view, calls, root } = open({}, { callbacks: { subscription: (ok: boolean) => results.push(ok) } });
    fireEvent.click(await view.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = view.getByRole('dialog', { name: 'Cancel the subscription?' });
    expect(within(dialog).getByText(/on Dec 27, 2026/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel at period end' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.path)).toEqual([BillingPaths.cancelSubscription.replace('{id}', 'sub-1')]);
    const current = view.getByRole('group', { name: 'Current plan' });
    await waitFor(() => expect(within(current).getByText('Cancellation pending')).toBeTruthy());
    expect(within(current).getByText('Ends on')).toBeTruthy();
    const cancel = view.getByRole('button', { name: 'Cancel subscription' });
    expect(reasonOf(cancel)).toBe('A cancellation is already pending.');
    const renew = view.getByRole('button', { name: 'Renew subscription' });
    expect((renew as HTMLButtonElement).disabled).toBe(false);
    // Keyboard users land on the action that undoes what they did (the pressed one is disabled now).
    await waitFor(() => expect(root.activeElement).toBe(renew));
    fireEvent.click(renew);
    await waitFor(() => expect(within(view.getByRole('group', { name: 'Current plan' })).queryByText('Cancellation pending')).toBeNull());
    await waitFor(() => expect(root.activeElement).toBe(view.getByRole('button', { name: 'Cancel subscription' })));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.path)).toEqual([BillingPaths.cancelSubscription.replace('{id}', 'sub-1'), BillingPaths.renewSubscription.replace('{id}', 'sub-1')]);
    expect(results).toEqual([true, true]);
  });

  it('keeps the cancel dialog with the server’s message when the cancel is refused, and reports false', async () => {
    const results: boolean[] = [];
    const { view } = open({}, { failures: [{ method: 'PUT', path: BillingPaths.cancelSubscription.replace('{id}', 'sub-1'), error: { message: 'Billing is externally managed', statusCode: 500 } }], callbacks: { subscription: (ok: boolean) => results.push(ok) } });
    fireEvent.click(await view.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = view.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel at period end' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Billing is externally managed');
    expect(results).toEqual([false]);
  });

  it('shows why a downgrade is refused on that plan’s card, and opens the checkout for an allowed change', async () => {
    const results: boolean[] = [];
    const { view, shown, calls } = open({}, { callbacks: { subscription: (ok: boolean) => results.push(ok) } });
    const toFree = await view.findByRole('button', { name: 'Change to Free' });
    expect((toFree as HTMLButtonElement).disabled).toBe(true);
    expect(reasonOf(toFree)).toBe('Your provider does not allow moving to a cheaper plan.');
    const toEnterprise = view.getByRole('button', { name: 'Change to Enterprise' });
    expect((toEnterprise as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(toEnterprise);
    await waitFor(() => expect(shown).toEqual([{ planId: 'enterprise' }]));
    // The checkout changes the plan itself: the section sends nothing, and reports nothing to the host (the checkout's confirm is the change).
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    expect(results).toEqual([]);
  });

  it('offers the downgrade when the vendor allows it, and Choose without a subscription', async () => {
    let { view, shown } = open({ configuration: { allowPlanDowngrade: true } });
    fireEvent.click(await view.findByRole('button', { name: 'Change to Free' }));
    await waitFor(() => expect(shown).toEqual([{ planId: 'free' }]));
    document.body.innerHTML = '';
    ({ view, shown } = open({ subscriptions: [] }));
    expect(await view.findByText('No paid subscription')).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Choose Premium' }));
    await waitFor(() => expect(shown).toEqual([{ planId: 'premium' }]));
    expect(view.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
  });

  it('shows why the checkout could not open, and keeps the section usable', async () => {
    const billing = billingApi({});
    const { domElement } = shadowMountPoint();
    const user = makeUser({ permissions: WRITER.map((key, i) => ({ id: `p${i}`, key, name: key })) });
    const store = createTestStore(user);
    const checkout = { show: () => Promise.reject(Object.assign(new Error('The checkout could not be loaded'), { statusCode: 0 })), hide: () => {} };
    render(<SubscriptionSection title="Subscription" headingId="sub-heading" user={user} snapshot={store.getSnapshot()} store={store} api={billing.api} options={readAdminPortalOptions(undefined)} checkout={checkout} />, { container: domElement });
    const view = within(domElement);
    fireEvent.click(await view.findByRole('button', { name: 'Change to Enterprise' }));
    expect((await view.findByRole('alert')).textContent).toBe('The checkout could not be loaded');
    expect((view.getByRole('button', { name: 'Change to Enterprise' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('disables plan changes and Replace card with a reason when the page has no checkout', async () => {
    const { view } = open({}, { withCheckout: false });
    const toEnterprise = await view.findByRole('button', { name: 'Change to Enterprise' });
    expect((toEnterprise as HTMLButtonElement).disabled).toBe(true);
    expect(reasonOf(toEnterprise)).toBe('The checkout is not available on this page, so plans cannot be changed here.');
    expect((view.getByRole('button', { name: 'Replace card' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the default card and opens the checkout for the current plan from Replace card', async () => {
    const { view, shown } = open();
    expect(await view.findByText('Visa •••• 4242')).toBeTruthy();
    expect(view.getByText('Expires 04/2031')).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Replace card' }));
    await waitFor(() => expect(shown).toEqual([{ planId: 'premium' }]));
  });

  it('lists invoices with amounts in their currency to 2 decimals and paid or unpaid', async () => {
    const { view } = open({ invoices: [invoice, { ...invoice, id: 'inv-2', receiptNumber: null, externalId: 'in_2', totalAmount: 12.5, currency: 'eur', paid: false }] });
    const table = await view.findByRole('table', { name: 'Invoices of this account, newest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').slice(0, 3).map((cell) => cell.textContent))).toEqual([
      ['Nov 27, 2026', '$100.00', 'Paid'],
      ['Nov 27, 2026', '€12.50', 'Unpaid'],
    ]);
    expect(within(rows[1]!).getByRole('rowheader').textContent).toBe('in_2');
  });

  it('says "No invoices yet" when there are none', async () => {
    const { view } = open({ invoices: [] });
    expect(await view.findByText('No invoices yet')).toBeTruthy();
  });

  it('downloads an invoice’s PDF through the API client as invoice-<receipt number>.pdf', async () => {
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:invoice';
    }) as typeof URL.createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const clicked: Array<{ href: string; download: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    const { view, calls } = open();
    fireEvent.click(await view.findByRole('button', { name: 'Download invoice 1234-5678' }));
    await waitFor(() => expect(clicked).toEqual([{ href: 'blob:invoice', download: 'invoice-1234-5678.pdf' }]));
    const call = calls.find((c) => c.path === BillingPaths.invoicePdf.replace('{id}', 'inv-1'))!;
    expect(call).toMatchObject({ method: 'GET', responseType: 'blob' });
    expect(await created[0]!.text()).toBe('%PDF-1.4 invoice');
    expect(created[0]!.type).toBe('application/pdf');
  });

  it('checks the billing details field by field before sending, sends them, and keeps what was typed when the server refuses', async () => {
    const { view, calls } = open({}, { failures: [] });
    const form = await view.findByRole('form', { name: 'Billing details' });
    const email = within(form).getByLabelText('Billing email') as HTMLInputElement;
    expect(email.value).toBe('billing@example.com');
    fireEvent.change(email, { target: { value: 'not-an-email' } });
    fireEvent.change(within(form).getByLabelText('Country code (2 letters)'), { target: { value: 'USA' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save billing details' }));
    expect(await within(form).findByText('Enter an email address like name@example.com')).toBeTruthy();
    expect(within(form).getByText('Enter the two-letter country code, like US or DE')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);

    fireEvent.change(email, { target: { value: ' ap@example.com ' } });
    fireEvent.change(within(form).getByLabelText('Country code (2 letters)'), { target: { value: 'de' } });
    fireEvent.change(within(form).getByLabelText('Address line 2'), { target: { value: 'Floor 2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save billing details' }));
    expect(await within(form).findByText('Billing details saved')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([{
      method: 'PATCH',
      path: BillingPaths.paymentMethodBillingDetails.replace('{id}', 'pm-1'),
      body: { id: 'pm-1', email: 'ap@example.com', address: { line1: '1 Main St', line2: 'Floor 2', city: 'Springfield', state: null, postalCode: null, country: 'DE' } },
    }]);
  });

  it('shows the server’s refusal of the billing details and reports it to the callback', async () => {
    const results: boolean[] = [];
    const path = BillingPaths.paymentMethodBillingDetails.replace('{id}', 'pm-1');
    const { view } = open({}, { failures: [{ method: 'PATCH', path, error: { message: 'address.postalCode: too long', statusCode: 400 } }], callbacks: { subscription: (ok: boolean) => results.push(ok) } });
    const form = await view.findByRole('form', { name: 'Billing details' });
    fireEvent.change(within(form).getByLabelText('City'), { target: { value: 'Shelbyville' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save billing details' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('address.postalCode: too long');
    expect((within(form).getByLabelText('City') as HTMLInputElement).value).toBe('Shelbyville');
    expect(results).toEqual([false]);
  });

  it('lets a reader see everything but change nothing, saying why', async () => {
    const { view } = open({}, { permissions: ['fe.subscriptions.read'] });
    expect(await view.findByText('You can view the subscription. Changing it needs the subscriptions write permission.')).toBeTruthy();
    const cancel = view.getByRole('button', { name: 'Cancel subscription' });
    expect(reasonOf(cancel)).toBe('Changing the subscription needs the subscriptions write permission.');
    expect((view.getByRole('button', { name: 'Change to Enterprise' }) as HTMLButtonElement).disabled).toBe(true);
    expect((view.getByLabelText('Billing email') as HTMLInputElement).disabled).toBe(true);
    expect(view.queryByRole('button', { name: 'Save billing details' })).toBeNull();
  });

  it('tells the tenant admin honestly that billing is not set up when no Stripe provider is active, or the server says so', async () => {
    let { view, calls } = open({ providers: [{ id: 'stripe', providerType: 'Stripe', status: '0' }] });
    expect(await view.findByText("Billing isn't set up yet")).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual([BillingPaths.paymentProviders]);
    expect(view.queryByRole('alert')).toBeNull();
    document.body.innerHTML = '';
    ({ view } = open({}, { failures: [{ method: 'GET', path: BillingPaths.plans, error: Object.assign({ message: 'Payment provider not configured', statusCode: 500 }, { errorCode: BillingErrorCodes.providerNotConfigured }) }] }));
    expect(await view.findByText("Billing isn't set up yet")).toBeTruthy();
  });

  it('shows a failed load with Try again, which loads again', async () => {
    const failures: Failure[] = [{ method: 'GET', path: BillingPaths.plans, error: { message: 'Internal feature failure', statusCode: 500 } }];
    const { view } = open({}, { failures });
    expect((await view.findByRole('alert')).textContent).toBe('Internal feature failure');
    failures.length = 0;
    fireEvent.click(view.getByRole('button', { name: 'Try again' }));
    expect(await view.findByRole('group', { name: 'Current plan' })).toBeTruthy();
  });

  it('reads plans, subscription, card and invoices again after the checkout says billing changed', async () => {
    const { view, calls, state } = open();
    await view.findByText('Visa •••• 4242');
    state.methods = [{ ...card, last4: '1881', brand: 'mastercard' }];
    state.subscriptions = [subscription({ planId: 'enterprise' })];
    const before = calls.length;
    act(() => {
      window.dispatchEvent(new CustomEvent(BILLING_CHANGED_EVENT, { detail: { planId: 'enterprise' } }));
    });
    await waitFor(() => expect(calls.length).toBeGreaterThan(before));
    expect(await view.findByText('Mastercard •••• 1881')).toBeTruthy();
    const again = calls.slice(before).map((c) => c.path);
    expect(again).toEqual(expect.arrayContaining([BillingPaths.plans, BillingPaths.managedSubscriptions, BillingPaths.paymentMethods, BillingPaths.invoices]));
    expect(within(view.getByRole('group', { name: 'Current plan' })).getByText('Enterprise')).toBeTruthy();
  });
});
