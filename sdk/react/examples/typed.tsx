// Type-checks against the published declarations: the provider's props, hooks and gates.
import { AuthorizedContent, GatehouseProvider, Protect, useAuth, useAuthActions, useTenants, type GatehouseUser } from '@gatehouse/react';

function App() {
  const { user, isLoading }: { user: GatehouseUser | null; isLoading: boolean } = useAuth();
  const { stepUp, logout } = useAuthActions();
  const { tenants, switchTenant } = useTenants();
  if (isLoading) return <p>Loading…</p>;
  return (
    <>
      <p>{user?.name}</p>
      <select onChange={(e) => void switchTenant(e.target.value)}>{tenants.map((t) => <option key={t.tenantId} value={t.tenantId}>{t.name}</option>)}</select>
      <AuthorizedContent requiredPermissions={['fe.secure.write.users']} requiredRoles={['Admin']} fallback={<p>No access</p>}>
        <button onClick={() => void stepUp({ maxAge: 300 })}>Settings</button>
      </AuthorizedContent>
      <Protect feature="reports-export" fallback={null}><button>Export</button></Protect>
      <Protect plan="premium"><span>Premium</span></Protect>
      <button onClick={() => void logout()}>Sign out</button>
    </>
  );
}

export const root = (
  <GatehouseProvider options={{ contextOptions: { baseUrl: 'https://id.example.com' } }} loaderScript={{ src: 'https://id.example.com/cdn/loader.js', integrity: 'sha384-x' }}>
    <App />
  </GatehouseProvider>
);
