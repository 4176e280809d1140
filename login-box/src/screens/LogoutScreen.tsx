import { useEffect } from 'react';
import { useLoginBox } from '../context';

/** The logout route: signs out (server call, local clear) and the store navigates to login. */
export function LogoutScreen() {
  const { store } = useLoginBox();
  useEffect(() => {
    void store.logout();
  }, [store]);
  return (
    <>
      <h1>Signing out</h1>
      <p role="status" className="gh-status">
        <span className="gh-spinner" aria-hidden="true" /> Signing out...
      </p>
    </>
  );
}
