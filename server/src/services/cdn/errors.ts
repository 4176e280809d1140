/** The CDN rollouts' errors (OperatorErrorCodes), each with its status in one place. */
import { ErrorCodes, OperatorErrorCodes } from '@gatehouse/shared/wire';
import { AppError } from '../../errors';

export const CdnErrors = {
  versionNotFound: (bundle: string, version: string) => new AppError(OperatorErrorCodes.notFound, 404, `${bundle} ${version} is not published`, { bundle, version }),
  /** The version's folder exists but does not verify (or is not a folder of that version). */
  invalidVersion: (message: string) => new AppError(OperatorErrorCodes.cdnManifestInvalid, 409, `the version does not verify, nothing changed: ${message}`),
  /** The build's cdn-manifest.json (what a bundle with no rollout serves) is missing or invalid. */
  invalidManifest: (message: string) => new AppError(OperatorErrorCodes.cdnManifestInvalid, 409, `cdn-manifest.json: ${message}`),
  versionConflict: (message: string) => new AppError(OperatorErrorCodes.cdnVersionConflict, 409, message),
  noPrevious: (bundle: string) => new AppError(OperatorErrorCodes.cdnNoPrevious, 409, `${bundle} has no previous default to roll back to`, { bundle }),
  noCanary: (bundle: string) => new AppError(OperatorErrorCodes.notFound, 404, `${bundle} has no canary`, { bundle }),
  noPin: (bundle: string, tenantId: string) => new AppError(OperatorErrorCodes.notFound, 404, `tenant ${tenantId} is not pinned on ${bundle}`, { bundle, tenantId }),
  field: (field: string, message: string) => new AppError(ErrorCodes.validation, 400, `${field}: ${message}`, { field }),
};
