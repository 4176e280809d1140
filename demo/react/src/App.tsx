import type { ReactNode } from 'react';
import { AuthorizedContent, Protect, useAdminPortal, useAuth, useAuthActions, useFeatureFlag, useIsSteppedUp, usePermissions, useTenants, useUser } from '@gatehouse/react';
import { isAuthRoute, pages } from './routes';
import { go, usePathname } from './use-location';

function NavLink({ to, children }: { to: string; children: ReactNode }) {
  const current = usePathname() === to;
  return (
    <a href={to} aria-current={current ? 'page' : undefined} onClick={(e) => { e.preventDefault(); go(to); }}>
      {children}
    </a>
  );
}

function TenantSwitcher() {
  const { tenants, activeTenantId, switchTenant } = useTenants();
  if (tenants.length < 2) return null;
  return (
    <label className="tenant">
      Account
      <select value={activeTenantId ?? ''} onChange={(e) => void switchTenant(e.target.value)}>
        {tenants.map((t) => <option key={t.tenantId} value={t.tenantId}>{t.name}</option>)}
      </select>
    </label>
  );
}

function Header() {
  const user = useUser();
  const { logout } = useAuthActions();
  const portal = useAdminPortal();
  return (
    <header>
      <strong>Acme Notes</strong>
      {user && (
        <nav aria-label="Pages">
          <NavLink to={pages.home}>Home</NavLink>
          <NavLink to={pages.reports}>Reports</NavLink>
          <NavLink to={pages.settings}>Sensitive settings</NavLink>
        </nav>
      )}
      {user && <TenantSwitcher />}
      {user && <span data-testid="signed-in-user">{user.name} · {user.email ?? ''}</span>}
      {user && <button type="button" className="primary" onClick={() => void portal.show()}>Admin portal</button>}
      {user && <button type="button" onClick={() => void logout()}>Sign out</button>}
    </header>
  );
}

function Home() {
  const user = useUser()!;
  const tenant = user.tenants.find((t) => t.tenantId === user.tenantId);
  const darkEditor = useFeatureFlag('new-editor');
  return (
    <section className="card">
      <h1>Welcome back</h1>
      <p data-testid="greeting">Signed in as {user.name} in {tenant?.name ?? user.tenantId}.</p>
      <p>This page is a React host: {'<GatehouseProvider>'} loads Gatehouse, hooks read its state.</p>
      <p>Feature flag new-editor: {darkEditor ? 'on' : 'off'}.</p>
    </section>
  );
}

function Reports() {
  const { isSuperUser } = usePermissions();
  return (
    <section className="card">
      <h1>Reports</h1>
      <AuthorizedContent requiredPermissions={['fe.secure.write.users']} fallback={<p role="status">Reports are for members who manage users in this account.</p>}>
        <p data-testid="reports">Team report: every member of this account{isSuperUser ? ' (super user view)' : ''}.</p>
      </AuthorizedContent>
      <Protect feature="reports-export" fallback={<p>Exports come with a plan that includes them.</p>}>
        <p>Export to CSV is included in your plan.</p>
      </Protect>
    </section>
  );
}

function Settings() {
  const { stepUp } = useAuthActions();
  // Seed 000 section 4.9 from the access token, for display (the server checks for real).
  const verified = useIsSteppedUp({ maxAge: 300 });
  return (
    <section className="card">
      <h1>Sensitive settings</h1>
      {verified ? (
        <p data-testid="stepped-up">Verified with a second factor in the last 5 minutes: these settings are open.</p>
      ) : (
        <>
          <p>Changing these settings needs a second factor from the last 5 minutes.</p>
          <button type="button" className="primary" onClick={() => void stepUp({ maxAge: 300 })}>Verify it’s you</button>
        </>
      )}
    </section>
  );
}

export function App() {
  const { isLoading, isAuthenticated, error } = useAuth();
  const pathname = usePathname();
  if (error) return <main><p role="alert">Gatehouse could not load: {error.message}</p></main>;
  if (isAuthRoute(pathname)) return <Header />;
  let page: ReactNode = null;
  if (isLoading) page = <p role="status">Loading…</p>;
  else if (isAuthenticated) page = pathname === pages.reports ? <Reports /> : pathname === pages.settings ? <Settings /> : <Home />;
  return (
    <>
      <Header />
      <main>{page}</main>
    </>
  );
}
