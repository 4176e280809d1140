/**
 * Who may sign in to an application (issue 15): a hosted-login client linked to a MANAGED_ACCESS
 * application lets in only the users assigned to it in the tenant they sign in to; every other
 * client (linked to a FREE_ACCESS application, or to none) lets in every member. Asked by hosted
 * login at /oauth/authorize (code issue), at the token endpoint (code exchange and refresh) and at
 * silent authorization, so an unassignment stops the next refresh too.
 */
import { ApplicationErrorCodes } from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import { findApplicationByClient, isAssigned } from '../../db/queries/applications';
import { AppError } from '../../errors';

export interface ApplicationAccess {
  /** Whether the user may get a code or tokens for the client in the tenant. */
  allowed(clientId: string, userId: string, tenantId: string): Promise<boolean>;
}

/** What a refused user is told (the error's description at authorize and token). */
export const NOT_ASSIGNED_MESSAGE = 'You are not assigned to this application. Ask an administrator of your account for access.';

export const notAssigned = () => new AppError(ApplicationErrorCodes.notAssigned, 403, NOT_ASSIGNED_MESSAGE);

export function createApplicationAccess(deps: { db: Db }): ApplicationAccess {
  const { db } = deps;
  return {
    async allowed(clientId, userId, tenantId) {
      const app = await findApplicationByClient(db, clientId);
      if (!app || app.access_type !== 'MANAGED_ACCESS') return true;
      return isAssigned(db, app.id, tenantId, userId);
    },
  };
}
