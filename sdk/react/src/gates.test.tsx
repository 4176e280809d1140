import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createGatehouseClient } from './client.js';
import { GatehouseProvider } from './GatehouseProvider.js';
import { AuthorizedContent, Protect } from './gates.js';
import type { EntitlementsContext } from '@gatehouse/shared/entitlements';
import { createTestApp, type TestApp } from './test/loader-app.js';

afterEach(cleanup);

function renderWith(app: TestApp, ui: ReactNode) {
  const client = createGatehouseClient({ connect: async () => app });
  return render(
    <GatehouseProvider client={client} options={app.options} loaderScript={{ src: 'x', integrity: 'y' }}>
      <span data-testid="ready">{'ready'}</span>
      {ui}
    </GatehouseProvider>,
  );
}

const ENTITLEMENTS: EntitlementsContext = {
  features: {
    reports: { planIds: ['premium'], expireTime: -1, linkedPermissions: [] },
    // Granted until a date: not what a plan gives.
    exports: { planIds: ['business'], expireTime: Date.now() + 86_400_000, linkedPermissions: [] },
    sso: { planIds: ['business'], expireTime: null, linkedPermissions: ['fe.secure.write.sso'] },
  },
  plans: {},
  permissions: { 'notes.write': true, 'fe.secure.write.sso': true },
  planId: 'premium',
};

describe('<AuthorizedContent> (seed 000 section 6)', () => {
  const gate = (
    <AuthorizedContent requiredPermissions={['notes.write']} requiredRoles={['Admin']} fallback={<p>No access</p>}>
      <p>Secret</p>
    </AuthorizedContent>
  );

  it('shows the content to a user holding every required permission and role', async () => {
    renderWith(createTestApp(), gate);
    expect(await screen.findByText('Secret')).toBeTruthy();
  });

  it('hides it when one required permission or role is missing', async () => {
    renderWith(createTestApp({ signedIn: { roles: [{ id: 'r2', key: 'ReadOnly', name: 'Read only' }] } }), gate);
    await waitFor(() => expect(screen.getByText('No access')).toBeTruthy());
    expect(screen.queryByText('Secret')).toBeNull();
  });

  it('hides it from a user with no permissions or roles, and from nobody signed in', async () => {
    renderWith(createTestApp({ signedIn: { roles: [], permissions: [] } }), gate);
    await waitFor(() => expect(screen.getByText('No access')).toBeTruthy());
    cleanup();
    renderWith(createTestApp({ signedIn: false }), gate);
    await waitFor(() => expect(screen.getByText('No access')).toBeTruthy());
  });

  it('shows it to a super user who holds none of them', async () => {
    renderWith(createTestApp({ signedIn: { superUser: true, roles: [], permissions: [] } }), gate);
    expect(await screen.findByText('Secret')).toBeTruthy();
  });
});

describe('<Protect> over the entitlement API', () => {
  async function shows(app: TestApp, ui: ReactNode, entitlements: EntitlementsContext = ENTITLEMENTS): Promise<string> {
    app.setEntitlements(entitlements);
    // "loaded" shows once the entitlements are in (every fixture holds "reports"), so an "out" is never the loading fallback.
    renderWith(app, <>{ui}<Protect feature="reports"><span>loaded</span></Protect></>);
    await screen.findByText('loaded');
    return screen.getByText(/^(in|out)$/).textContent!;
  }

  it('feature=: shown when entitled to the feature, the fallback otherwise', async () => {
    expect(await shows(createTestApp(), <Protect feature="reports" fallback={<p>out</p>}><p>in</p></Protect>)).toBe('in');
    cleanup();
    expect(await shows(createTestApp(), <Protect feature="sso" fallback={<p>out</p>}><p>in</p></Protect>)).toBe('out');
  });

  it('permission=: a permission linked to a feature the user lacks is not entitled; an unlinked held one is', async () => {
    expect(await shows(createTestApp(), <Protect permission="notes.write" fallback={<p>out</p>}><p>in</p></Protect>)).toBe('in');
    cleanup();
    expect(await shows(createTestApp(), <Protect permission="fe.secure.write.sso" fallback={<p>out</p>}><p>in</p></Protect>)).toBe('out');
  });

  it("plan=: shown when the tenant's plan (planId of GET entitlements v2) is the one named; not for another plan whose features are held, nor with no plan", async () => {
    expect(await shows(createTestApp(), <Protect plan="premium" fallback={<p>out</p>}><p>in</p></Protect>)).toBe('in');
    cleanup();
    // A feature of "business" is held (granted until a date), but the tenant is not on it.
    expect(await shows(createTestApp(), <Protect plan="business" fallback={<p>out</p>}><p>in</p></Protect>)).toBe('out');
    cleanup();
    expect(await shows(createTestApp(), <Protect plan="premium" fallback={<p>out</p>}><p>in</p></Protect>, { ...ENTITLEMENTS, planId: null })).toBe('out');
    cleanup();
    // A server that names no plan: no plan matches, though "premium" features are held with no expiry.
    const { planId: _none, ...older } = ENTITLEMENTS;
    expect(await shows(createTestApp(), <Protect plan="premium" fallback={<p>out</p>}><p>in</p></Protect>, older)).toBe('out');
  });

  it('shows the fallback while entitlements are not loaded, and the content to a super user', async () => {
    const app = createTestApp();
    renderWith(app, <Protect feature="reports" fallback={<p>out</p>}><p>in</p></Protect>);
    expect(await screen.findByText('out')).toBeTruthy();
    cleanup();
    renderWith(createTestApp({ signedIn: { superUser: true } }), <Protect feature="anything" fallback={<p>out</p>}><p>in</p></Protect>);
    expect(await screen.findByText('in')).toBeTruthy();
  });
});
