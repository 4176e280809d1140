import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { operandProblem } from '@gatehouse/shared/entitlements';
import { ApplicationBody, FeatureFlagBody, VendorApplicationBody, VendorApplicationPatch, type VendorApplication, OperatorPlanBody, RulesSchema, type Application, type BillingConfiguration, type Feature, type FeatureFlag, type OperatorPlan } from '@gatehouse/shared/wire';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import { chooseRowAction } from '../test/row-menu';
import { recordingApi, type Call } from '../test/section-harness';
import OperatorSection from './operator';

const P = '/operator/resources';
const FEATURE: Feature = { id: 'f1', key: 'reports', name: 'Reports', description: '', linkedPermissions: ['app.reports.*'], createdAt: 1, updatedAt: 1 };
const PLAN: OperatorPlan = {
  id: 'plan-1', name: 'Premium', description: '', slug: 'premium', price: { amount: 10_000, currency: 'usd' }, recurringInterval: 'month', trialDays: 14, seatLimit: 20,
  isActive: true, isDefault: false, features: [{ featureKey: 'reports', limit: null }], defaultTreatment: 'true', rules: null, createdAt: 1, updatedAt: 1,
};
const CONFIG: BillingConfiguration = {
  providerType: 'Stripe', status: '1', secretKeySet: true, webhookSecretSet: true, publishableKey: 'pk_test_123', allowPlanDowngrade: false, allowPlanCancellation: true,
  trialEndOption: 'change_to_default', defaultPlanId: 'plan-1', apiBase: 'https://api.stripe.com', updatedAt: 1,
};

const APPLICATIONS: Application[] = [
  { clientId: 'file-app', name: 'From file', redirectUris: ['https://file.example.com/cb'], postLogoutRedirectUris: [], confidential: true, source: 'file' },
];

const PRODUCTS: VendorApplication[] = [
  { id: 'app-1', name: 'Payroll', url: 'https://payroll.example.com', logo: 'https://gatehouse.example.com/applications/resources/applications/v1/logos/0123456789abcdef0123456789abcdef', accessType: 'MANAGED_ACCESS', clientId: 'file-app', createdAt: 1, updatedAt: 1 },
];

function answers(state: { plans: OperatorPlan[]; features: Feature[]; flags: FeatureFlag[] }) {
  return (method: string, path: string) => {
    if (method === 'GET' && path === `${P}/plans/v1`) return state.plans;
    if (method === 'GET' && path === `${P}/features/v1`) return state.features;
    if (method === 'GET' && path === `${P}/feature-flags/v1`) return state.flags;
    if (path === `${P}/billing-configuration/v1`) return CONFIG;
    if (method === 'GET' && path === `${P}/applications/v1`) return APPLICATIONS;
    if (method === 'GET' && path === '/applications/resources/applications/v1') return PRODUCTS;
    if (method === 'POST' && path === '/applications/resources/applications/v1') return { ...PRODUCTS[0], id: 'app-new' };
    if (method === 'PATCH' && path.startsWith('/applications/resources/applications/v1/')) return PRODUCTS[0];
    if (method === 'POST' && path === `${P}/applications/v1`) return { clientId: 'billing-app', name: 'Billing', redirectUris: ['https://billing.example.com/cb'], postLogoutRedirectUris: [], confidential: true, source: 'database', clientSecret: 's3cret-once' };
    return undefined;
  };
}

function open({ superUser = true, target, flags = [] }: { superUser?: boolean; target?: string; flags?: FeatureFlag[] } = {}) {
  const { api, calls } = recordingApi(answers({ plans: [PLAN], features: [FEATURE], flags }));
  const { domElement } = shadowMountPoint();
  const claims = btoa(JSON.stringify({ iss: 'https://auth.example.com' })).replace(/=+$/, '');
  const user = makeUser({ superUser, accessToken: `h.${claims}.s` });
  const store = createTestStore(user);
  render(<OperatorSection title="Operator" headingId="op-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions(undefined)} target={target} />, { container: domElement });
  return { view: within(domElement), calls };
}

/** Waits for the section's loads and saves: generous, as component tests share the machine with builds. */
const LOAD = { timeout: 5000 };

const sent = (calls: Call[], method: string) => calls.filter((c) => c.method === method);

afterEach(() => {
  document.body.innerHTML = '';
});

describe('operator section', { timeout: 30_000 }, () => {
  it('shows its tabs only to a super user; anyone else gets a note and no call is made', async () => {
    const other = open({ superUser: false });
    expect(other.view.getByRole('note').textContent).toContain('super users only');
    expect(other.view.queryByRole('tablist')).toBeNull();
    expect(other.calls).toEqual([]);
    document.body.innerHTML = '';
    const { view } = open();
    expect(view.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Plans', 'Features', 'Feature flags', 'Billing', 'Applications', 'Products', 'CDN']);
    expect(await view.findByRole('row', { name: /Premium/ }, LOAD)).toBeTruthy();
  });

  it('lists plans with the price from minor units, trial, seats and state, and sends a typed major-unit price in minor units', async () => {
    const { view, calls } = open();
    const row = await view.findByRole('row', { name: /Premium/ }, LOAD);
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['$100.00 / month', '14 days', '20', 'Active', '']);
    fireEvent.click(view.getByRole('button', { name: 'Add plan' }));
    const dialog = await view.findByRole('dialog', { name: 'Add plan' }, LOAD);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add plan' }));
    expect(within(dialog).getAllByRole('alert').map((a) => a.textContent)).toEqual(['Enter the plan’s name (up to 120 characters)', 'Enter a slug of lower-case letters, digits and dashes, starting with a letter or digit', 'Enter a price such as 0, 12 or 99.90 (up to 1,000,000)']);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Team Plus' } });
    expect((within(dialog).getByLabelText('Slug') as HTMLInputElement).value).toBe('team-plus');
    fireEvent.change(within(dialog).getByLabelText('Price'), { target: { value: '99.90' } });
    fireEvent.change(within(dialog).getByLabelText('Seat limit'), { target: { value: '5' } });
    fireEvent.click(within(dialog).getByLabelText(/^Reports/));
    fireEvent.change(within(dialog).getByLabelText('Limit for Reports'), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add plan' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Plan Team Plus added'), LOAD);
    const [post] = sent(calls, 'POST');
    expect(post?.path).toBe(`${P}/plans/v1`);
    expect(post?.body).toMatchObject({ name: 'Team Plus', slug: 'team-plus', price: { amount: 9990, currency: 'usd' }, seatLimit: 5, trialDays: 0, features: [{ featureKey: 'reports', limit: 3 }], rules: null });
    expect(OperatorPlanBody.safeParse(post?.body).success).toBe(true);
  });

  it('edits a plan with its price shown back in major units', async () => {
    const { view, calls } = open();
    fireEvent.click(await view.findByRole('button', { name: 'Actions for plan Premium' }, LOAD));
    fireEvent.click(view.getByRole('menuitem', { name: 'Edit' }));
    const dialog = await view.findByRole('dialog', { name: 'Edit plan Premium' }, LOAD);
    expect((within(dialog).getByLabelText('Price') as HTMLInputElement).value).toBe('100');
    fireEvent.change(within(dialog).getByLabelText('Price'), { target: { value: '0.29' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save plan' }));
    await waitFor(() => expect(sent(calls, 'PATCH')).toHaveLength(1), LOAD);
    expect(sent(calls, 'PATCH')[0]).toMatchObject({ path: `${P}/plans/v1/plan-1`, body: { price: { amount: 29, currency: 'usd' }, slug: 'premium' } });
  });

  it('builds a flag with the rule editor: list chips, a number, negate; refuses a wrong field before sending (its error gone once edited); the body is a valid FeatureFlagBody', async () => {
    const { view, calls } = open({ target: 'flags' });
    fireEvent.click(await view.findByRole('button', { name: 'Add flag' }, LOAD));
    const dialog = await view.findByRole('dialog', { name: 'Add flag' }, LOAD);
    fireEvent.change(within(dialog).getByLabelText('Key'), { target: { value: 'beta-reports' } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Beta reports' } });
    fireEvent.click(within(dialog).getByRole('switch', { name: /^On/ }));
    fireEvent.click(within(dialog).getByLabelText(/^Reports/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add rule' }));
    const rule = within(within(dialog).getByRole('list', { name: 'Conditions of Rule 1' }));
    fireEvent.change(rule.getByLabelText('Operation'), { target: { value: 'in_list' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add flag' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Add at least one value');
    expect(sent(calls, 'POST')).toEqual([]);
    const values = rule.getByLabelText('Values');
    fireEvent.change(values, { target: { value: 'tenant-a' } });
    fireEvent.keyDown(values, { key: 'Enter' });
    // The edited condition's error goes away at once; it is checked again at the next save.
    expect(within(dialog).queryByRole('alert')).toBeNull();
    fireEvent.change(values, { target: { value: 'tenant-b' } });
    fireEvent.click(rule.getByRole('button', { name: 'Add' }));
    fireEvent.change(rule.getByLabelText('Attribute'), { target: { value: 'frontegg.tenantId' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add condition' }));
    const second = within(rule.getByRole('listitem', { name: 'Condition 2' }));
    fireEvent.change(second.getByLabelText('Attribute'), { target: { value: 'jwt.seats' } });
    fireEvent.change(second.getByLabelText('Operation'), { target: { value: 'greater_than' } });
    fireEvent.change(second.getByLabelText('Number'), { target: { value: '10' } });
    fireEvent.click(second.getByLabelText(/Negate/));
    fireEvent.change(within(dialog).getByLabelText('Conditions that must hold'), { target: { value: 'or' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add flag' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Flag Beta reports added'), LOAD);
    const body = sent(calls, 'POST')[0]?.body;
    expect(FeatureFlagBody.safeParse(body).success).toBe(true);
    expect(body).toEqual({
      key: 'beta-reports', name: 'Beta reports', description: '', on: true, offTreatment: 'false', defaultTreatment: 'false', featureKeys: ['reports'],
      rules: [{ conditionLogic: 'or', treatment: 'true', conditions: [
        { attribute: 'frontegg.tenantId', op: 'in_list', value: { list: ['tenant-a', 'tenant-b'] }, negate: false },
        { attribute: 'jwt.seats', op: 'greater_than', value: { number: 10 }, negate: true },
      ] }],
    });
  });

  it('enters starts_with, ends_with and contains through the list chips ("any of") and sends { list }, which the wire RulesSchema and the evaluator accept', async () => {
    const { view, calls } = open({ target: 'flags' });
    fireEvent.click(await view.findByRole('button', { name: 'Add flag' }, LOAD));
    const dialog = await view.findByRole('dialog', { name: 'Add flag' }, LOAD);
    fireEvent.change(within(dialog).getByLabelText('Key'), { target: { value: 'staff' } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Staff' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add rule' }));
    const rule = within(within(dialog).getByRole('list', { name: 'Conditions of Rule 1' }));
    const items: Record<'ends_with' | 'starts_with' | 'contains', string[]> = { ends_with: ['@example.com', '@example.org'], starts_with: ['ada@'], contains: ['staff'] };
    (Object.keys(items) as Array<keyof typeof items>).forEach((op, i) => {
      if (i > 0) fireEvent.click(within(dialog).getByRole('button', { name: 'Add condition' }));
      const condition = within(rule.getByRole('listitem', { name: `Condition ${i + 1}` }));
      fireEvent.change(condition.getByLabelText('Operation'), { target: { value: op } });
      expect(condition.getByRole('option', { name: `${op.replace('_', ' ')} any of` }).getAttribute('value')).toBe(op);
      expect(condition.queryByLabelText('Text')).toBeNull();
      expect(condition.getByText('Press Enter or “Add” after each value. The condition holds when any one of them matches.')).toBeTruthy();
      const values = condition.getByLabelText('Values');
      for (const item of items[op]) {
        fireEvent.change(values, { target: { value: item } });
        fireEvent.keyDown(values, { key: 'Enter' });
      }
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add flag' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Flag Staff added'), LOAD);
    const body = sent(calls, 'POST')[0]?.body as { rules: Array<{ conditions: Array<{ op: string; value: Record<string, unknown> }> }> };
    expect(body.rules[0]!.conditions).toEqual([
      { attribute: 'frontegg.email', op: 'ends_with', value: { list: ['@example.com', '@example.org'] }, negate: false },
      { attribute: 'frontegg.email', op: 'starts_with', value: { list: ['ada@'] }, negate: false },
      { attribute: 'frontegg.email', op: 'contains', value: { list: ['staff'] }, negate: false },
    ]);
    expect(FeatureFlagBody.safeParse(body).success).toBe(true);
    expect(RulesSchema.safeParse(body.rules).success).toBe(true);
    for (const condition of body.rules[0]!.conditions) expect(operandProblem(condition.op, condition.value), condition.op).toBeUndefined();
  });

  it('shows the items of a stored ends_with { list } as chips when a flag is edited, and sends them back as { list }', async () => {
    const flag: FeatureFlag = {
      id: 'flag-1', key: 'staff', name: 'Staff', description: '', on: true, offTreatment: 'false', defaultTreatment: 'false', featureKeys: [], createdAt: 1, updatedAt: 1,
      rules: [{ conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'frontegg.email', op: 'ends_with', value: { list: ['@example.com', '@example.org'] }, negate: false }] }],
    };
    const { view, calls } = open({ target: 'flags', flags: [flag] });
    fireEvent.click(await view.findByRole('button', { name: 'Actions for flag Staff' }, LOAD));
    fireEvent.click(view.getByRole('menuitem', { name: 'Edit' }));
    const dialog = await view.findByRole('dialog', { name: 'Edit flag Staff' }, LOAD);
    const condition = within(within(dialog).getByRole('listitem', { name: 'Condition 1' }));
    expect((condition.getByLabelText('Operation') as HTMLSelectElement).value).toBe('ends_with');
    expect(condition.getByRole('list', { name: 'Values' }).textContent).toContain('@example.com');
    expect(condition.getByRole('button', { name: 'Remove @example.org' })).toBeTruthy();
    fireEvent.click(condition.getByRole('button', { name: 'Remove @example.org' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save flag' }));
    await waitFor(() => expect(sent(calls, 'PATCH')).toHaveLength(1), LOAD);
    expect((sent(calls, 'PATCH')[0]?.body as { rules: unknown }).rules).toEqual([
      { conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'frontegg.email', op: 'ends_with', value: { list: ['@example.com'] }, negate: false }] },
    ]);
  });

  it('never prefills the Stripe secrets: write-only fields say set, start empty, are kept when left empty and cleared after a save', async () => {
    const { view, calls } = open({ target: 'billing' });
    const secret = (await view.findByLabelText(/^Secret key/, undefined, LOAD)) as HTMLInputElement;
    const webhook = view.getByLabelText(/^Webhook signing secret/) as HTMLInputElement;
    for (const input of [secret, webhook]) {
      expect(input.value).toBe('');
      expect(input.type).toBe('password');
      expect(input.getAttribute('autocomplete')).toBe('new-password');
    }
    expect(view.getByText('Secret key').parentElement?.textContent).toContain('Set');
    expect((view.getByLabelText('Publishable key') as HTMLInputElement).value).toBe('pk_test_123');
    expect((view.getByLabelText('Webhook endpoint URL') as HTMLInputElement).value).toBe('https://auth.example.com/subscriptions/resources/billing/stripe/webhooks/v1');
    expect((view.getByLabelText('Default plan') as HTMLSelectElement).value).toBe('plan-1');

    fireEvent.click(view.getByLabelText(/cheaper plan/));
    fireEvent.click(view.getByRole('button', { name: 'Save billing settings' }));
    await waitFor(() => expect(sent(calls, 'PUT')).toHaveLength(1), LOAD);
    expect(sent(calls, 'PUT')[0]?.body).toEqual({ publishableKey: 'pk_test_123', allowPlanDowngrade: true, allowPlanCancellation: true, trialEndOption: 'change_to_default', defaultPlanId: 'plan-1' });

    fireEvent.change(secret, { target: { value: 'pk_wrong' } });
    fireEvent.click(view.getByRole('button', { name: 'Save billing settings' }));
    expect((await view.findByRole('alert', undefined, LOAD)).textContent).toBe('A Stripe secret key starts with sk_ or rk_');
    fireEvent.change(secret, { target: { value: 'sk_test_new' } });
    fireEvent.click(view.getByLabelText('Remove the stored webhook secret'));
    fireEvent.click(view.getByRole('button', { name: 'Save billing settings' }));
    await waitFor(() => expect(sent(calls, 'PUT')).toHaveLength(2), LOAD);
    expect(sent(calls, 'PUT')[1]?.body).toMatchObject({ secretKey: 'sk_test_new', webhookSecret: '' });
    await waitFor(() => expect(secret.value).toBe(''), LOAD);
  });

  it('asks before deactivating a plan, then sends isActive false', async () => {
    const { view, calls } = open();
    fireEvent.click(await view.findByRole('button', { name: 'Actions for plan Premium' }, LOAD));
    fireEvent.click(view.getByRole('menuitem', { name: 'Deactivate' }));
    const dialog = await view.findByRole('dialog', { name: 'Deactivate plan Premium' }, LOAD);
    expect(sent(calls, 'PATCH')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Plan Premium deactivated'), LOAD);
    expect(sent(calls, 'PATCH')).toEqual([{ method: 'PATCH', path: `${P}/plans/v1/plan-1`, body: { isActive: false } }]);
  });

  it('adds a confidential application after checking its redirect URIs, shows its secret once, and leaves file-sourced ones read-only', async () => {
    const { view, calls } = open({ target: 'applications' });
    const fileRow = await view.findByRole('row', { name: /From file/ }, LOAD);
    expect(within(fileRow).queryByRole('button')).toBeNull();
    expect(fileRow.textContent).toContain('Read-only');
    fireEvent.click(view.getByRole('button', { name: 'Add application' }));
    const dialog = await view.findByRole('dialog', { name: 'Add application' }, LOAD);
    fireEvent.change(within(dialog).getByLabelText('Client ID'), { target: { value: 'billing-app' } });
    const uris = within(dialog).getByLabelText('Redirect URIs');
    fireEvent.change(uris, { target: { value: 'http://billing.example.com/cb' } });
    fireEvent.keyDown(uris, { key: 'Enter' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add application' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('http://billing.example.com/cb is not an https address');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove http://billing.example.com/cb' }));
    fireEvent.change(uris, { target: { value: 'https://billing.example.com/cb' } });
    fireEvent.keyDown(uris, { key: 'Enter' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add application' }));
    const secret = await view.findByRole('dialog', { name: 'Secret of billing-app' }, LOAD);
    expect((within(secret).getByLabelText('Client secret') as HTMLInputElement).value).toBe('s3cret-once');
    const body = sent(calls, 'POST')[0]?.body;
    expect(ApplicationBody.safeParse(body).success).toBe(true);
    expect(body).toEqual({ clientId: 'billing-app', redirectUris: ['https://billing.example.com/cb'], postLogoutRedirectUris: [], confidential: true });
    fireEvent.click(within(secret).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull(), LOAD);
    expect(view.queryByDisplayValue('s3cret-once')).toBeNull();
  });

  it('uploads a logo file with a product (a png sent as a data URL the wire schema accepts); an SVG or a file over 512 KB is refused under the field and nothing is sent', async () => {
    const { view, calls } = open({ target: 'products' });
    await view.findByRole('row', { name: /Payroll/ }, LOAD);
    fireEvent.click(view.getByRole('button', { name: 'Add product' }));
    const dialog = await view.findByRole('dialog', { name: 'Add product' }, LOAD);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Wiki' } });
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'https://wiki.example.com' } });
    const picker = within(dialog).getByLabelText('Or upload a logo');

    fireEvent.change(picker, { target: { files: [new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.svg', { type: 'image/svg+xml' })] } });
    expect(within(dialog).getByText('The logo must be a png, jpeg, gif or webp image')).toBeTruthy();
    fireEvent.change(picker, { target: { files: [new File([new Uint8Array(512 * 1024 + 1)], 'big.png', { type: 'image/png' })] } });
    expect(within(dialog).getByText('The logo is larger than 512 KB')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add product' }));
    expect(sent(calls, 'POST')).toEqual([]);

    // A 1x1 png.
    const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
    fireEvent.change(picker, { target: { files: [new File([png], 'logo.png', { type: 'image/png' })] } });
    await within(dialog).findByRole('img', { name: 'The new logo' }, LOAD);
    expect(within(dialog).queryByText('The logo is larger than 512 KB')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add product' }));
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1), LOAD);
    const body = sent(calls, 'POST')[0]?.body as { logo: string };
    expect(body.logo).toBe(`data:image/png;base64,${btoa(String.fromCharCode(...png))}`);
    expect(VendorApplicationBody.safeParse(body).success).toBe(true);
  });

  it('lists the vendor\'s applications as Products, adds one after checking its URL (FREE_ACCESS unless managed, linked to a client), and keeps an uploaded logo when editing', async () => {
    const { view, calls } = open({ target: 'products' });
    const row = await view.findByRole('row', { name: /Payroll/ }, LOAD);
    expect(row.textContent).toContain('Managed access');
    expect(row.textContent).toContain('file-app');
    fireEvent.click(view.getByRole('button', { name: 'Add product' }));
    const dialog = await view.findByRole('dialog', { name: 'Add product' }, LOAD);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Wiki' } });
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'https://user:pw@wiki.example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add product' }));
    expect(within(dialog).getByText(/without a user name or password/)).toBeTruthy();
    expect(sent(calls, 'POST')).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('URL'), { target: { value: 'https://wiki.example.com' } });
    fireEvent.change(within(dialog).getByLabelText('Hosted-login client'), { target: { value: 'file-app' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add product' }));
    await waitFor(() => expect(sent(calls, 'POST')).toHaveLength(1), LOAD);
    const body = sent(calls, 'POST')[0]?.body;
    expect(body).toEqual({ name: 'Wiki', url: 'https://wiki.example.com', accessType: 'FREE_ACCESS', clientId: 'file-app', logo: null });
    expect(VendorApplicationBody.safeParse(body).success).toBe(true);
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull(), LOAD);

    await chooseRowAction(view, 'Actions for product Payroll', 'Edit');
    const edit = await view.findByRole('dialog', { name: 'Edit product Payroll' }, LOAD);
    fireEvent.click(within(edit).getByLabelText(/Managed access/));
    fireEvent.click(within(edit).getByRole('button', { name: 'Save product' }));
    await waitFor(() => expect(sent(calls, 'PATCH')).toHaveLength(1), LOAD);
    const patch = sent(calls, 'PATCH')[0]!;
    expect(patch.path).toBe('/applications/resources/applications/v1/app-1');
    // The uploaded logo is not sent, so the server keeps it.
    expect(patch.body).toEqual({ name: 'Payroll', url: 'https://payroll.example.com', accessType: 'FREE_ACCESS', clientId: 'file-app' });
    expect(VendorApplicationPatch.safeParse(patch.body).success).toBe(true);
  });
});
