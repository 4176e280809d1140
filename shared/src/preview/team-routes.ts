/**
 * Preview routes of the Users section's other actions (docs/preview-mode.md): resending an
 * invitation (no email leaves), temporary users, and the account's invite link. Each change is kept
 * for the page's life and audited; a bad value is refused with a 400 naming the field.
 */
import { AdminPaths, INVITE_LINK_DEFAULT_EXPIRY_MINUTES } from '../wire/admin/paths';
import type { InviteLink } from '../wire/admin/users';
import { fail, noContent, ok, type Handler, type PreviewState, type Route } from './routes';

/** Ten years in seconds: the longest a temporary user may stay (the wire schema's bound). */
const MAX_TEMPORARY_SECONDS = 315_360_000;
const MAX_LINK_MINUTES = 525_600;

export function teamRoutes(state: PreviewState): Route[] {
  let link: (Omit<InviteLink, 'expiresInMinutes'> & { expiresAt: number }) | null = null;
  const user = (id: string | undefined) => state.users().find((u) => u.id === id);
  const answerLink = () => link && ok({ id: link.id, token: link.token, url: link.url, expires: link.expires, expiresInMinutes: Math.max(0, Math.round((link.expiresAt - state.now()) / 60_000)) });
  const minutes = (body: Record<string, unknown>, fallback?: number): number | string => {
    const value = body.expiresInMinutes ?? fallback;
    return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_LINK_MINUTES ? value : `expiresInMinutes must be a whole number from 1 to ${MAX_LINK_MINUTES}`;
  };
  const setLink = (expires: number, creating: boolean) => {
    const expiresAt = state.now() + expires * 60_000;
    const id = link?.id ?? state.newId('invite-link');
    // A made-up token: the link opens nothing, there is no server.
    const token = link?.token ?? `preview-invite-${id}`;
    link = { id, token, url: `${globalThis.location?.origin ?? ''}/account/sign-up?invitationToken=${token}`, expires: new Date(expiresAt).toISOString(), expiresAt };
    state.audit(creating ? 'Invite link created' : 'Invite link updated', `The invite link expires ${link.expires}`);
    return answerLink()!;
  };
  const saveLink = (creating: boolean): Handler => ({ body }) => {
    if (!creating && !link) return fail(404, 'The account has no invite link');
    const value = minutes(body, creating ? INVITE_LINK_DEFAULT_EXPIRY_MINUTES : undefined);
    return typeof value === 'string' ? fail(400, value) : setLink(value, creating);
  };

  return [
    ['POST', AdminPaths.teamResendActivation, ({ params }) => {
      const target = user(params.userId);
      if (!target) return fail(404, 'User not found');
      state.audit('Invitation resent', `The invitation of ${target.email} was sent again`);
      return noContent;
    }],
    ['GET', AdminPaths.temporaryUsersConfiguration, () => ok({ enabled: true })],
    ['PUT', AdminPaths.temporaryUser, ({ params, body }) => {
      const target = user(params.userId);
      if (!target) return fail(404, 'User not found');
      const seconds = body.expirationInSeconds;
      if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 60 || seconds > MAX_TEMPORARY_SECONDS)
        return fail(400, `expirationInSeconds must be a whole number from 60 to ${MAX_TEMPORARY_SECONDS}`);
      const before = target.temporaryExpirationDate;
      target.temporaryExpirationDate = new Date(state.now() + seconds * 1000).toISOString();
      state.audit('Temporary user set', `${target.email}: expires ${before ?? 'never'} -> ${target.temporaryExpirationDate}`);
      return ok(target);
    }],
    ['DELETE', AdminPaths.temporaryUser, ({ params }) => {
      const target = user(params.userId);
      if (!target) return fail(404, 'User not found');
      const before = target.temporaryExpirationDate;
      target.temporaryExpirationDate = null;
      state.audit('Temporary user made permanent', `${target.email}: expires ${before ?? 'never'} -> never`);
      return ok(target);
    }],
    ['GET', AdminPaths.inviteLink, () => answerLink() ?? fail(404, 'The account has no invite link')],
    ['POST', AdminPaths.inviteLink, saveLink(true)],
    ['PATCH', AdminPaths.inviteLink, saveLink(false)],
    ['DELETE', AdminPaths.inviteLink, () => {
      if (!link) return fail(404, 'The account has no invite link');
      link = null;
      state.audit('Invite link deleted', 'The invite link no longer works');
      return noContent;
    }],
  ];
}
