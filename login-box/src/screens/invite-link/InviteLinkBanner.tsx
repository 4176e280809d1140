import { useEffect, useState } from 'react';
import { ErrorMessages, toGatehouseError } from '@gatehouse/shared';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useI18n } from '../../use-i18n';

type State = { name?: string; error?: string };


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
  const { t } = useI18n();
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
      <div className="gh-banner">
        <ErrorAlert message={state.error} />
      </div>
    );
  }
  if (!state.name) {
    return (
      <p className="gh-status" role="status">
        <span className="gh-spinner" aria-hidden="true" />
        {t('invitation.checking')}
      </p>
    );
  }
  return (
    <p className="gh-notice gh-banner" role="status">
      {t('inviteLink.invited', { name: state.name })}
    </p>
  );
}
