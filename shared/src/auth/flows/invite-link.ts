/**
 * Joining a tenant by its shareable invite link (seed 001 "Invite link"; seed 000 sections 7.2, 7.3:
 * sign-in and sign-up carry an `invitationToken`, "Verify invite token returns name"). Its own chunk,
 * loaded only when a page URL carries `invitationToken` or a verified token is pending in this tab.
 *
 * The token is verified when the page opens (the login box greets with the tenant's name) and then
 * kept in sessionStorage. A sign-up sends it (the server joins at activation, in the signing-up
 * browser only). Any sign-in (password, MFA, passkey, code, magic link, social, SSO) ends in the
 * store's establishSession, which, while a token is pending, calls `joinInviteLink` here before the
 * user is set: the link is joined with the signed-in user's own bearer token (POST …/user/join) and
 * the new session is moved into that tenant (refresh with tenantId), so the user lands in it. Doing
 * it after the session exists, instead of carrying the token through the server's sign-in steps,
 * means no sign-in method and no MFA step can skip or bypass it, and nothing is joined for a
 * session that never completes.
 */
import type { GatehouseStore } from '../../core/types';
import { ErrorMessages, toGatehouseError } from '../../errors';
import type { JoinByInviteLinkResponse, VerifyInviteLinkResponse } from '../../wire/admin/users';
import { AdminPaths } from '../../wire/admin/paths';
import type { LoginResponse } from '../../wire/auth/auth';
import type { KeyValueStorage } from '../store';
import type { FlowContext } from '../flow-context';
import { INVITE_LINK_KEY } from './invite-link-key';

/** The store methods this flow adds. */
export type InviteLinkFlow = Pick<GatehouseStore, 'verifyInviteLink' | 'joinInviteLink'>;

export function createInviteLinkFlow(ctx: FlowContext, storage: KeyValueStorage | null): InviteLinkFlow {
  const { api, atoms, set } = ctx;
  const keep = (token: string | null) => {
    try {
      if (token) storage?.setItem(INVITE_LINK_KEY, token);
      else storage?.removeItem(INVITE_LINK_KEY);
    } catch {
      // Storage refused (private mode, sandboxed frame): the link is then simply not kept.
    }
  };

  return {
    async verifyInviteLink(token) {
      try {
        const info = await api.request<VerifyInviteLinkResponse>('POST', AdminPaths.inviteLinkVerify, { body: { token } });
        keep(token);
        return info;
      } catch (error) {
        keep(null);
        const e = toGatehouseError(error);
        // A dead link gets the seed's sentence; a rate limit or an outage says what it is.
        throw e.statusCode === 404 || e.statusCode === 400 ? { ...e, message: ErrorMessages.invitationInvalid } : e;
      }
    },

    async joinInviteLink(login) {
      let token: string | null = null;
      try {
        token = storage?.getItem(INVITE_LINK_KEY) ?? null;
      } catch {
        token = null;
      }
      // No session yet (a second factor is pending): the link waits for the sign-in that completes.
      if (login.mfaRequired) return login;
      // Used once, whatever happens: a failed join never blocks this or a later sign-in.
      keep(null);
      if (!token) return login;
      try {
        const joined = await api.request<JoinByInviteLinkResponse>('POST', AdminPaths.inviteLinkJoin, { body: { token } });
        if (joined.tenantId === login.tenantId) return login;
        const moved: LoginResponse = await api.refresh(joined.tenantId);
        set(atoms.accessToken, moved.accessToken);
        return moved;
      } catch {
        // The link died between the greeting and the sign-in (or the user may not join, e.g. while
        // impersonated): signed in as usual, in the usual tenant.
        return login;
      }
    },
  };
}
