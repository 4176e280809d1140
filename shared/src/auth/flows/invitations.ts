/**
 * Accept invitation (seed 000 sections 2.2, 4.4, 5, 7.3): `invalid` when the link lacks its token or
 * userId; else `validate` (the link is verified and the invitee greeted by name; a new account
 * chooses its password, the code route asks for the emailed code) -> `pending` -> `success`, or
 * `failed` when the link cannot be verified. A failed acceptance goes back to `validate` when the
 * user can fix it, and always in the code variant (seed 4.4). Loaded on first use (flows/lazy.ts).
 */
import type { GatehouseStore } from '../../core/types';
import { ACTIVATION_REDIRECT_DELAY_MS, MFA_REDIRECT_DELAY_MS } from '../../constants';
import { ErrorMessages, toGatehouseError } from '../../errors';
import type { AcceptInvitationResponse, VerifyInvitationResponse } from '../../wire/users/invitations';
import { ErrorCodes } from '../../wire/error-codes';
import { ApiPaths } from '../../wire/paths';
import type { FlowContext } from '../flow-context';
import { initialInvitation } from '../state';

/** The store methods this flow adds. */
export type InvitationFlow = Pick<GatehouseStore, 'startInvitation' | 'acceptInvitation' | 'resendInvitation'>;

export function createInvitationFlow(ctx: FlowContext): InvitationFlow {
  const { api, atoms, get, set, patch } = ctx;

  return {
    async startInvitation({ userId, token }) {
      if (!userId || !token) {
        set(atoms.invitation, { ...initialInvitation, step: 'invalid' });
        return;
      }
      set(atoms.invitation, { ...initialInvitation, step: 'validate', loading: true });
      try {
        const info = await api.request<VerifyInvitationResponse>('POST', ApiPaths.invitationVerify, { body: { userId, token } });
        set(atoms.invitation, { ...initialInvitation, step: 'validate', name: info.name, email: info.email, tenantName: info.tenantName, shouldSetPassword: info.shouldSetPassword, codeRequired: info.codeRequired });
      } catch (error) {
        const e = toGatehouseError(error);
        // The server's sentence for a dead link (used, expired, limited); seed 8's message for anything else.
        const message = e.statusCode >= 400 && e.statusCode < 500 ? e.message : ErrorMessages.invitationInvalid;
        set(atoms.invitation, { ...initialInvitation, step: 'failed', error: message });
      }
    },

    async acceptInvitation({ userId, token, password, code }) {
      const before = get(atoms.invitation);
      if (before.loading) return;
      const withCode = before.codeRequired || code !== undefined;
      set(atoms.invitation, { ...before, step: 'pending', loading: true, error: null });
      try {
        const body = { userId, token, ...(password ? { password } : {}), ...(withCode ? { code: (code ?? '').trim() } : {}) };
        const response = await api.request<AcceptInvitationResponse>('POST', withCode ? ApiPaths.invitationAcceptCode : ApiPaths.invitationAccept, { body });
        const auth = response.authResponse;
        if (response.outcome === 'joined' || !auth) {
          // An existing account joined: it signs in as usual, in the tenant it just joined.
          set(atoms.invitation, { ...before, step: 'success', loading: false, error: null, outcome: 'joined' });
          ctx.goAfter(ACTIVATION_REDIRECT_DELAY_MS, () => ctx.routes.loginUrl);
          return;
        }
        if (auth.mfaRequired) {
          // Seed 4.2 and 4.5: no session until the second factor; it is asked on the login route after 1 s.
          await ctx.beginMfa(auth, before.email ?? '');
          set(atoms.invitation, { ...before, step: 'success', loading: false, error: null, outcome: 'signedIn' });
          ctx.goAfter(MFA_REDIRECT_DELAY_MS, () => ctx.routes.loginUrl);
          return;
        }
        await ctx.establishSession(auth);
        set(atoms.invitation, { ...before, step: 'success', loading: false, error: null, outcome: 'signedIn' });
        // Like an activation (seed 4.5): the new account is signed in and navigated after 5 s.
        ctx.goAfter(ACTIVATION_REDIRECT_DELAY_MS, () => ctx.afterAuthTarget());
      } catch (error) {
        const e = toGatehouseError(error);
        const fixable = withCode || (e.statusCode >= 400 && e.statusCode < 500 && e.errorCode !== ErrorCodes.invalidInvitation);
        set(atoms.invitation, { ...before, step: fixable ? 'validate' : 'failed', loading: false, error: e.message });
      }
    },

    async resendInvitation(address) {
      patch(atoms.invitation, { loading: true, error: null, resendSent: false });
      try {
        await api.request<unknown>('POST', ApiPaths.invitationResend, { body: { email: address.trim() } });
        patch(atoms.invitation, { loading: false, resendSent: true });
      } catch (error) {
        patch(atoms.invitation, { loading: false, error: toGatehouseError(error).message });
      }
    },
  };
}
