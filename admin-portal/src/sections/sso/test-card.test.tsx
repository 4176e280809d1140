import { act, fireEvent, render, waitFor, within } from '@testing-library/react';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role, SsoConfiguration, SsoTestReport } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';
import { readAdminPortalOptions } from '../../options';
import { createTestStore, makeUser, shadowMountPoint } from '../../test/fake-store';
import SsoSection from '../sso';
import { canTest, localDeadline, oidcRedirectUri, TEST_POLL_MS, waitForReport } from './connection-test';

const BASE = '/identity/resources/sso/v1/configurations';
const ROLES: Role[] = [
  { id: 'r-support', key: 'Support', name: 'Support', description: null, isDefault: false, permissions: [], tenantId: 't', userCount: 1, createdAt: '' },
  { id: 'r-read', key: 'ReadOnly', name: 'Read only', description: null, isDefault: true, permissions: [], tenantId: 't', userCount: 1, createdAt: '' },
];
const ADDRESS = 'https://idp.example.com/sso?SAMLRequest=abc&RelayState=_t1';

function config(overrides: Partial<SsoConfiguration> = {}): SsoConfiguration {
  return {
    id: 'c1', type: 'saml', enabled: false, domains: [{ id: 'd1', domain: 'acme.test', validated: true, generatedVerification: 'gatehouse-verification=x' }],
    roleIds: ['r-read'], groups: [{ id: 'g1', group: 'support', roleIds: ['r-support'] }], signRequest: false,
    acsUrl: 'https://id.example.com/acs', spEntityId: 'https://id.example.com/metadata', spMetadataUrl: 'https://id.example.com/metadata', spCertificate: null,
    idpEntityId: 'https://idp.example.com', ssoEndpoint: 'https://idp.example.com/sso', publicCertificate: 'PEM', publicCertificateExpiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString(), metadataUrl: null,
    createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

function report(overrides: Partial<SsoTestReport> = {}): SsoTestReport {
  return {
    testId: '_t1', status: 'passed', expiresAt: new Date(Date.now() + 60_000).toISOString(), error: null,
    subject: 'jane@acme.test', email: 'jane@acme.test', name: 'Jane Doe',
    attributes: [{ name: 'email', values: ['jane@acme.test'] }, { name: 'groups', values: ['support', 'engineering'] }],
    groups: ['support', 'engineering'], roleMappings: [{ group: 'support', roleIds: ['r-support'] }], defaultRoleIds: ['r-read'],
    problems: [{ code: 'unknownGroups', severity: 'warning', values: ['engineering'] }],
    ...overrides,
  };
}

/** The section over a fake API whose test report is pending once, then `final`. */
function open(final: SsoTestReport, initial = config(), extra: { oidcRedirectUrl?: string } = {}, serverNow = () => Date.now()) {
  const calls: string[] = [];
  const bodies: unknown[] = [];
  let reads = 0;
  const api = {
    async request(method: string, path: string, options?: { body?: unknown }) {
      calls.push(`${method} ${path}`);
      if (method === 'POST') bodies.push(options?.body);
      if (path === '/identity/resources/roles/v1') return ROLES;
      if (path === BASE) return [initial];
      if (method === 'POST' && path === `${BASE}/c1/test`) return { testId: '_t1', address: ADDRESS, expiresAt: new Date(serverNow() + 600_000).toISOString(), expiresInMs: 600_000 };
      if (method === 'GET' && path === `${BASE}/c1/test/_t1`) return reads++ === 0 ? report({ status: 'pending', email: null, attributes: [], problems: [] }) : final;
      throw new Error(`unexpected ${method} ${path}`);
    },
  } as unknown as GatehouseApi;
  const { domElement, root } = shadowMountPoint();
  const permissions = ['fe.secure.read.samlConfiguration', 'fe.secure.write.samlConfiguration', 'fe.secure.read.roles'];
  const user = makeUser({ id: 'me', permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const store = createTestStore(user);
  render(<SsoSection title="Single sign-on" headingId="sso-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions(undefined)} {...extra} />, { container: domElement });
  return { view: within(domElement), root, calls, bodies };
}

function fakePopup() {
  const popup = { opener: {} as unknown, location: { href: '' }, close: vi.fn() };
  const spy = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
  return { popup, spy };
}

/** Waits on the real clock (vi.waitFor would move the fake one) until `done` holds, for at most 5 s. */
async function until(done: () => boolean) {
  const deadline = Date.now() + 5_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await sleep(5);
  }
}

const reportReads = (calls: string[]) => calls.filter((c) => c === `GET ${BASE}/c1/test/_t1`).length;

/**
 * Clicks "Test connection" with setTimeout on a fake clock (the card's poll waits on it), and waits
 * for its first read of the report, which the fake API answers pending.
 */
async function startTest(card: ReturnType<typeof within>, calls: string[]) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  fireEvent.click(card.getByRole('button', { name: 'Test connection' }));
  await act(() => until(() => reportReads(calls) === 1));
}

/** The card reads the report again only once TEST_POLL_MS have passed (not 1 ms before); then the clock is real again. */
async function nextPoll(calls: string[]) {
  try {
    await act(() => vi.advanceTimersByTimeAsync(TEST_POLL_MS - 1));
    expect(reportReads(calls), 'no second read before the poll interval').toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await act(() => until(() => reportReads(calls) === 2));
  } finally {
    vi.useRealTimers();
  }
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('SSO Test connection', () => {
  it('before SSO is on: opens the IdP in a new window cut from the portal, waits, then shows the attributes, roles and problems with focus on the result', async () => {
    const { popup, spy } = fakePopup();
    const { view, root, calls } = open(report());
    const card = within(await view.findByRole('region', { name: '5. Test connection' }));
    expect(card.getByText(/before you turn single sign-on on/)).toBeTruthy();
    await startTest(card, calls);
    // Opened in the click, its opener cut before it is sent to the IdP's address.
    expect(spy).toHaveBeenCalledWith('', '_blank');
    expect(popup.location.href).toBe(ADDRESS);
    expect(popup.opener).toBeNull();
    expect(card.getByRole('status').textContent).toMatch(/Waiting for the sign-in/);
    expect(card.getByRole('link', { name: 'Open the sign-in window' }).getAttribute('href')).toBe(ADDRESS);
    await nextPoll(calls);

    const heading = await card.findByRole('heading', { name: 'The connection works' }, { timeout: 5000 });
    await waitFor(() => expect(root.activeElement).toBe(heading));
    expect(calls.filter((c) => c === `GET ${BASE}/c1/test/_t1`)).toHaveLength(2);
    expect(calls).toContain(`POST ${BASE}/c1/test`);
    const table = card.getByRole('table', { name: 'Attributes received' });
    expect(within(table).getByRole('rowheader', { name: 'groups' })).toBeTruthy();
    expect(within(table).getByRole('cell', { name: 'support, engineering' })).toBeTruthy();
    expect(within(card.getByRole('list', { name: 'Problems found' })).getByText(/This group has no role mapping: engineering\./)).toBeTruthy();
    expect(card.getByText('Read only, Support')).toBeTruthy();
    expect(card.getByText('Group mappings used: support.')).toBeTruthy();
  }, 10_000);

  it("waits for the report when the browser's clock is an hour ahead of the server's (the deadline counts from the start's answer)", async () => {
    fakePopup();
    const { view, calls } = open(report(), config(), {}, () => Date.now() - 3_600_000);
    const card = within(await view.findByRole('region', { name: '5. Test connection' }));
    await startTest(card, calls);
    await nextPoll(calls);
    await card.findByRole('heading', { name: 'The connection works' }, { timeout: 5000 });
    expect(card.queryByRole('heading', { name: 'No answer from the identity provider' })).toBeNull();
    expect(calls.filter((c) => c === `GET ${BASE}/c1/test/_t1`)).toHaveLength(2);
  }, 10_000);

  it('shows a refused answer as failed with the reason, and an email outside the validated domains as an error', async () => {
    fakePopup();
    const failed = open(report({ status: 'failed', error: 'Invalid signature', subject: null, email: null, name: null, attributes: [], groups: [], roleMappings: [], problems: [] }));
    const card = within(await failed.view.findByRole('region', { name: '5. Test connection' }));
    await startTest(card, failed.calls);
    await nextPoll(failed.calls);
    await card.findByRole('heading', { name: 'The test failed' }, { timeout: 5000 });
    expect(card.getByText('Invalid signature')).toBeTruthy();
    expect(card.queryByRole('table')).toBeNull();
    document.body.innerHTML = '';

    fakePopup();
    const outside = open(report({ email: 'jane@elsewhere.test', problems: [{ code: 'emailDomainNotValidated', severity: 'error', values: ['elsewhere.test'] }] }));
    const card2 = within(await outside.view.findByRole('region', { name: '5. Test connection' }));
    await startTest(card2, outside.calls);
    await nextPoll(outside.calls);
    await card2.findByRole('heading', { name: 'The identity provider answered, but sign-ins would be refused' }, { timeout: 5000 });
    expect(card2.getByText(/The email domain elsewhere.test is not one of your validated domains/)).toBeTruthy();
  }, 15_000);

  it("OIDC: starts with the login box's callback route as redirect URI (the host's route on this origin), and shows the claims and the subject; an unverified email is an error", async () => {
    const { popup } = fakePopup();
    const oidc = config({ type: 'oidc', idpEntityId: null, ssoEndpoint: null, publicCertificate: null, oidc: { issuer: 'https://idp.example.com', clientId: 'gatehouse', scopes: 'openid email profile', hasClientSecret: true } });
    const claims = report({
      subject: '00u1abc', email: null, name: 'Jane Doe', attributes: [{ name: 'sub', values: ['00u1abc'] }, { name: 'email_verified', values: ['false'] }], groups: [], roleMappings: [],
      problems: [{ code: 'emailNotVerified', severity: 'error', values: ['jane@acme.test'] }],
    });
    const { view, calls, bodies } = open(claims, oidc, { oidcRedirectUrl: '/sso/oidc-back' });
    const card = within(await view.findByRole('region', { name: '5. Test connection' }));
    await startTest(card, calls);
    expect(popup.location.href).toBe(ADDRESS);
    expect(calls).toContain(`POST ${BASE}/c1/test`);
    expect(bodies).toEqual([{ redirectUri: `${window.location.origin}/sso/oidc-back` }]);
    await nextPoll(calls);
    await card.findByRole('heading', { name: 'The identity provider answered, but sign-ins would be refused' }, { timeout: 5000 });
    const table = card.getByRole('table', { name: 'Claims received' });
    expect(within(table).getByRole('columnheader', { name: 'Claim' })).toBeTruthy();
    expect(within(table).getByRole('rowheader', { name: 'email_verified' })).toBeTruthy();
    expect(card.getByText('Subject (sub)')).toBeTruthy();
    expect(card.getByText(/says the email jane@acme\.test is not verified/)).toBeTruthy();
  }, 10_000);

  it('SAML starts without a body; OIDC without the host route uses the default callback route', async () => {
    fakePopup();
    const saml = open(report());
    fireEvent.click(within(await saml.view.findByRole('region', { name: '5. Test connection' })).getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(saml.bodies).toEqual([undefined]));
    document.body.innerHTML = '';
    fakePopup();
    const oidc = open(report(), config({ type: 'oidc', oidc: { issuer: 'https://idp.example.com', clientId: 'gatehouse', scopes: 'openid email', hasClientSecret: true } }));
    fireEvent.click(within(await oidc.view.findByRole('region', { name: '5. Test connection' })).getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(oidc.bodies).toEqual([{ redirectUri: `${window.location.origin}/account/oidc/callback` }]));
  });

  it('cannot start while the IdP entity id is missing (sign-in URL and certificate entered by hand)', async () => {
    const { spy } = fakePopup();
    const { view } = open(report(), config({ idpEntityId: null }));
    const card = within(await view.findByRole('region', { name: '5. Test connection' }));
    const button = card.getByRole('button', { name: 'Test connection' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    expect(spy).not.toHaveBeenCalled();
  });

  it('cannot start before the IdP is set, and says why', async () => {
    const { spy } = fakePopup();
    const { view } = open(report(), config({ ssoEndpoint: null, publicCertificate: null }));
    const card = within(await view.findByRole('region', { name: '5. Test connection' }));
    const button = card.getByRole('button', { name: 'Test connection' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(card.getByText('Add the identity provider (step 2) to test the connection.').id).toBe(button.getAttribute('aria-describedby'));
    expect(spy).not.toHaveBeenCalled();
  });
});

describe('waiting for the report', () => {
  it('asks until the report is there, and never past the test’s expiry', async () => {
    let t = 0;
    const reads: number[] = [];
    const pending = report({ status: 'pending' });
    const result = await waitForReport(async () => { reads.push(t); return pending; }, { deadline: 10_000, now: () => t, wait: async (ms) => void (t += ms), intervalMs: 2000 });
    expect(result).toBe('expired');
    // Asked at the deadline too: the server, not this clock, says whether the test still lives.
    expect(reads).toEqual([0, 2000, 4000, 6000, 8000, 10_000]);

    t = 0;
    let n = 0;
    expect(await waitForReport(async () => (++n < 3 ? pending : report()), { deadline: 10_000, now: () => t, wait: async (ms) => void (t += ms) })).toMatchObject({ status: 'passed' });
    expect(n).toBe(3);
  });

  it("counts the deadline from the start's answer on the local clock, whatever the server's clock says", async () => {
    // The server's clock an hour behind or ahead of this browser's: the same 10 minutes from the answer.
    const answeredAt = Date.parse('2026-11-27T10:00:00.000Z');
    expect(localDeadline({ expiresInMs: 600_000 }, answeredAt)).toBe(answeredAt + 600_000);
    let t = answeredAt;
    let n = 0;
    const pending = report({ status: 'pending', expiresAt: new Date(answeredAt - 3_600_000).toISOString() });
    const result = await waitForReport(async () => (++n < 4 ? pending : report()), { deadline: localDeadline({ expiresInMs: 600_000 }, answeredAt), now: () => t, wait: async (ms) => void (t += ms) });
    expect(result).toMatchObject({ status: 'passed' });
    expect(n).toBe(4);
  });

  it('ends on a 404 (expired or already read on the server) and when cancelled; other failures are thrown', async () => {
    const gone = Object.assign(new Error('Connection test not found'), { statusCode: 404 });
    expect(await waitForReport(async () => { throw gone; }, { deadline: Date.now() + 60_000 })).toBe('expired');
    expect(await waitForReport(async () => report(), { deadline: Date.now() + 60_000, cancelled: () => true })).toBe('cancelled');
    const broken = Object.assign(new Error('boom'), { statusCode: 500 });
    await expect(waitForReport(async () => { throw broken; }, { deadline: Date.now() + 60_000 })).rejects.toThrow('boom');
  });

  it('tests SAML configurations whose IdP is set and OIDC ones with issuer, client id and secret, on or off', () => {
    expect(canTest(config())).toBe(true);
    expect(canTest(config({ enabled: true }))).toBe(true);
    expect(canTest(config({ publicCertificate: null }))).toBe(false);
    expect(canTest(config({ ssoEndpoint: null }))).toBe(false);
    // Entered by hand without the entity id: the server would refuse the test.
    expect(canTest(config({ idpEntityId: null }))).toBe(false);
    const oidc = { issuer: 'https://idp.example.com', clientId: 'gatehouse', scopes: 'openid', hasClientSecret: true };
    expect(canTest(config({ type: 'oidc', oidc }))).toBe(true);
    expect(canTest(config({ type: 'oidc', enabled: true, oidc }))).toBe(true);
    expect(canTest(config({ type: 'oidc', oidc: { ...oidc, hasClientSecret: false } }))).toBe(false);
    expect(canTest(config({ type: 'oidc' }))).toBe(false);
  });

  it("an OIDC test's redirect URI is the route on the page's origin, without query or fragment", () => {
    expect(oidcRedirectUri('/account/oidc/callback', 'https://app.acme.test/admin?x=1#y')).toBe('https://app.acme.test/account/oidc/callback');
    expect(oidcRedirectUri('https://login.acme.test/cb?z=1', 'https://app.acme.test/')).toBe('https://login.acme.test/cb');
  });
});
