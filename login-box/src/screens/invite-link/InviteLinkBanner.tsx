import { useEffect, useState, type CSSProperties } from 'react';
import { ErrorMessages, toGatehouseError } from '@gatehouse/shared';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';

type State = { name?: string; error?: string };

// Inline (this chunk only), so the login form's stylesheet, fetched on every sign-in, stays as it is.
const boxStyle: CSSProperties = {
  padding: '10px 12px',
  fontSize: 14,
  background: 'color-mix(in srgb, var(--_primary) 8%, var(--_bg))',
  border: '1px solid color-mix(in srgb, var(--_primary) 30%, var(--_bg))',
  borderRadius: 'var(--_radius)',
};

/**
 * "You've been invited to join <tenant>" above the sign-up and login forms when the URL carries an
 * invite link's `invitationToken`. Verifying keeps the token for this tab (flows/invite-link.ts): the
 * sign-up sends it, and any sign-in joins the tenant and lands in it. A dead link shows the seed's
 * 'We couldn't verify your invitation' and the user signs up or in as usual. Its own chunk: loaded
 * only when the URL has the parameter.
 */
export default function InviteLinkBanner({ token }: { token: string }) {
  const { store } = useLoginBox();
  const { signUp } = useAuth(store);
  const [state, setState] = useState<State>({});

  useEffect(() => {
    let live = true;
    setState({});
    store.verifyInviteLink(token).then(
      ({ name }) => live && setState({ name }),
      (error: unknown) => live && setState({ error: toGatehouseError(error).message }),
    );
    return () => {
      live = false;
    };
  }, [store, token]);

  // The link died between the greeting and the sign-up: the server refused it with the same sentence.
  const refused = signUp.error === ErrorMessages.invitationInvalid;
  useEffect(() => {
    // Checked again: still dead, the token is forgotten so that signing up again goes through as usual.
    if (refused) store.verifyInviteLink(token).catch((error: unknown) => setState({ error: toGatehouseError(error).message }));
  }, [refused, store, token]);

  if (state.error) {
    return (
      <div style={{ marginBottom: 16 }}>
        <ErrorAlert message={state.error} />
      </div>
    );
  }
  if (!state.name) {
    return (
      <p className="gh-status" role="status">
        <span className="gh-spinner" aria-hidden="true" />
        Checking your invitation...
      </p>
    );
  }
  return (
    <p style={boxStyle} role="status">
      You&apos;ve been invited to join <strong>{state.name}</strong>
    </p>
  );
}
