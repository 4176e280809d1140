import { ApiPaths, ErrorCodes, type MeAuthorizationResponse, type MeResponse, type MeTenantsV3Response, type TenantSummary, type UpdateMeRequest } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { deleteUserPicturesExcept, findProfilePicture, insertProfilePicture, type ProfilePictureRow } from '../../db/queries/profile-pictures';
import { listUserTenants } from '../../db/queries/tenants';
import { findUserById, findUserWithMfaEnrolled, updateUser } from '../../db/queries/users';
import { normalizePhoneNumber } from '../platform/phone';
import { AppError, Errors } from '../../errors';
import type { AuthContext } from '../auth/auth';
import { loadAuthorization, toTenantSummary } from '../admin/tenants';
import { raiseInUserTenants } from '../connectivity/user-events';

/** Decoded profile pictures may be at most 1 MiB. */
export const MAX_PROFILE_IMAGE_BYTES = 1024 * 1024;

/** Checks that image bytes start as their declared type does (shared with account logos). */
export const MAGIC: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')),
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

export interface UserService {
  getMe(ctx: AuthContext): Promise<MeResponse>;
  updateMe(ctx: AuthContext, patch: UpdateMeRequest): Promise<MeResponse>;
  getAuthorization(ctx: AuthContext): Promise<MeAuthorizationResponse>;
  listTenants(ctx: AuthContext): Promise<TenantSummary[]>;
  tenantsV3(ctx: AuthContext): Promise<MeTenantsV3Response>;
  /** Stores a data-URL image as the user's picture and returns its public URL. */
  setProfileImage(ctx: AuthContext, dataUrl: string): Promise<string>;
  getProfilePicture(id: string): Promise<ProfilePictureRow | undefined>;
}

export function createUserService(deps: { db: Db; clock: Clock; config: Pick<Config, 'publicUrl'> }): UserService {
  const { db, clock, config } = deps;
  const pictureBase = `${config.publicUrl}${ApiPaths.profilePicture}/`;
  const pictureUrl = (id: string | null) => (id ? `${pictureBase}${id}` : null);

  async function getMe(ctx: AuthContext): Promise<MeResponse> {
    const user = await findUserWithMfaEnrolled(db, ctx.userId);
    if (!user) throw Errors.unauthorized();
    const tenants = (await listUserTenants(db, user.id)).map(toTenantSummary);
    const authz = await loadAuthorization(db, user.id, ctx.tenantId);
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      username: user.username,
      verified: user.verified === 1,
      tenantId: ctx.tenantId,
      tenantIds: tenants.map((t) => t.id),
      tenants,
      phoneNumber: user.phone_number,
      address: user.address,
      jobTitle: user.job_title,
      profilePictureUrl: pictureUrl(user.profile_picture_id),
      roles: authz.roles,
      permissions: authz.permissions,
      superUser: user.super_user === 1,
      // Seed 4.8: enrolment marks the user as MFA enrolled; disabling clears it.
      mfaEnrolled: user.mfa_enrolled,
      metadata: user.metadata,
      createdAt: new Date(user.created_at).toISOString(),
      lastLogin: user.last_login ? new Date(user.last_login).toISOString() : null,
    };
  }

  /**
   * True when `typed` is the user's verified number (in any spelling): it stays as stored. A verified
   * number signs in (SMS strategies) and may be the account's only way in, so the profile cannot
   * change or remove it (throws); a new number goes through a flow that verifies it.
   */
  async function isVerifiedPhone(userId: string, typed: string | null): Promise<boolean> {
    const user = await findUserById(db, userId);
    if (user?.phone_verified !== 1) return false;
    if (normalizePhoneNumber(typed ?? '') !== user.phone_number) throw Errors.validation('phoneNumber: a verified phone number cannot be changed or removed here; use the phone number change, which verifies the new number');
    return true;
  }

  return {
    getMe,

    async updateMe(ctx, patch) {
      // The phone number is a recovery channel (SMS reset): an impersonator must not point it elsewhere.
      if (patch.phoneNumber !== undefined && ctx.claims.act) throw new AppError(ErrorCodes.notWhileImpersonating, 403, 'Not available while impersonating a user');
      let pictureId: string | null | undefined;
      if (patch.profilePictureUrl !== undefined) {
        // Only pictures uploaded here may be referenced: the portal renders this URL for others.
        if (patch.profilePictureUrl === null) pictureId = null;
        else if (patch.profilePictureUrl.startsWith(pictureBase)) {
          const id = patch.profilePictureUrl.slice(pictureBase.length);
          const pic = await findProfilePicture(db, id);
          if (!pic || pic.user_id !== ctx.userId) throw Errors.validation('profilePictureUrl: must be an image uploaded with the profile image call');
          pictureId = id;
        } else throw Errors.validation('profilePictureUrl: must be an image uploaded with the profile image call');
      }
      const keepPhone = patch.phoneNumber !== undefined && (await isVerifiedPhone(ctx.userId, patch.phoneNumber));
      const changedFields = Object.entries(patch).filter(([, value]) => value !== undefined).map(([field]) => field);
      await db.transaction().execute(async (trx) => {
        await updateUser(trx, ctx.userId, {
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.phoneNumber !== undefined && !keepPhone ? { phone_number: patch.phoneNumber || null } : {}),
          ...(patch.address !== undefined ? { address: patch.address || null } : {}),
          ...(patch.jobTitle !== undefined ? { job_title: patch.jobTitle || null } : {}),
          ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
          ...(pictureId !== undefined ? { profile_picture_id: pictureId } : {}),
        });
        // user.updated in each of the user's tenants (issue 16), with the change.
        const me = await findUserById(trx, ctx.userId);
        if (me && changedFields.length > 0) await raiseInUserTenants(trx, me, { key: 'user.updated', changedFields }, { userId: me.id, email: me.email }, clock.now());
      });
      return getMe(ctx);
    },

    async getAuthorization(ctx) {
      return loadAuthorization(db, ctx.userId, ctx.tenantId);
    },

    async listTenants(ctx) {
      return (await listUserTenants(db, ctx.userId)).map(toTenantSummary);
    },

    async tenantsV3(ctx) {
      const tenants = (await listUserTenants(db, ctx.userId)).map(toTenantSummary);
      const activeTenant = tenants.find((t) => t.id === ctx.tenantId);
      if (!activeTenant) throw new AppError(ErrorCodes.tenantNotFound, 404, 'Tenant not found');
      return { tenants, activeTenant };
    },

    async setProfileImage(ctx, dataUrl) {
      const match = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/.exec(dataUrl);
      if (!match) throw new AppError(ErrorCodes.invalidImage, 400, 'profileImage must be a base64 data URL of a png, jpeg, gif or webp image');
      const mime = match[1]!;
      const bytes = Buffer.from(match[2]!, 'base64');
      if (bytes.length > MAX_PROFILE_IMAGE_BYTES) throw new AppError(ErrorCodes.invalidImage, 400, 'Profile image must be at most 1 MB');
      // The declared type must match the bytes, so nothing else can be served as an image.
      if (!MAGIC[mime]?.(bytes)) throw new AppError(ErrorCodes.invalidImage, 400, `profileImage content is not a valid ${mime.slice(6)} image`);
      const id = newId();
      await insertProfilePicture(db, { id, user_id: ctx.userId, mime, bytes, created_at: clock.now() });
      await updateUser(db, ctx.userId, { profile_picture_id: id });
      await deleteUserPicturesExcept(db, ctx.userId, id);
      return pictureUrl(id)!;
    },

    getProfilePicture: (id) => findProfilePicture(db, id),
  };
}
