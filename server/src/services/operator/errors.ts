/** The Operator area's errors (OperatorErrorCodes), each with its status in one place. */
import { ErrorCodes, OperatorErrorCodes } from '@gatehouse/shared/wire';
import { AppError } from '../../errors';

export const OperatorErrors = {
  notFound: (what: string) => new AppError(OperatorErrorCodes.notFound, 404, `${what} not found`),
  slugTaken: (slug: string) => new AppError(OperatorErrorCodes.slugTaken, 409, `slug: a plan with the slug "${slug}" already exists`, { field: 'slug' }),
  keyTaken: (what: string, key: string, field = 'key') => new AppError(OperatorErrorCodes.keyTaken, 409, `${field}: ${what} "${key}" already exists`, { field }),
  inUse: (message: string, context?: Record<string, unknown>) => new AppError(OperatorErrorCodes.inUse, 409, message, context),
  readOnly: (message: string) => new AppError(OperatorErrorCodes.readOnly, 409, message),
  invalidRules: (message: string, context: Record<string, unknown>) => new AppError(OperatorErrorCodes.invalidRules, 400, message, context),
  /** A body field that passed its schema but names something that does not exist. */
  field: (field: string, message: string) => new AppError(ErrorCodes.validation, 400, `${field}: ${message}`, { field }),
};
