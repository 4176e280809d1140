/** Reading the server's refusals of a restriction save: the field a 400 names, and the self-lockout 409. */
import { SecurityErrorCodes } from '@gatehouse/shared/admin-paths';

function fieldsOf(error: unknown): { code: string | null; status: number | null; message: string | null; context: Record<string, unknown> } {
  if (!error || typeof error !== 'object') return { code: null, status: null, message: null, context: {} };
  const e = error as Record<string, unknown>;
  return {
    code: typeof e.errorCode === 'string' ? e.errorCode : null,
    status: typeof e.statusCode === 'number' ? e.statusCode : null,
    message: typeof e.message === 'string' && e.message ? e.message : null,
    context: typeof e.errorContext === 'object' && e.errorContext !== null ? (e.errorContext as Record<string, unknown>) : {},
  };
}

/** True when the server refused the save because it would shut out the caller's own address (409 ER-02802). */
export function isSelfLockout(error: unknown): boolean {
  const { code, status } = fieldsOf(error);
  return code === SecurityErrorCodes.selfLockout && (status === null || status === 409);
}

/** The server's "<field>: <problem>" read as a sentence: the field's name dropped, the first letter capitalised. */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The field of `fields` a 400 names, with the sentence to show under it: from `errorContext.field`,
 * else from a message shaped "<field>: <problem>" (the validation hook's form). Null otherwise.
 */
export function fieldError<F extends string>(error: unknown, fields: readonly F[]): { field: F; message: string } | null {
  const { status, message, context } = fieldsOf(error);
  if (status !== null && status !== 400) return null;
  const named = typeof context.field === 'string' ? context.field : null;
  if (named && (fields as readonly string[]).includes(named) && message) return { field: named as F, message: sentence(message.replace(new RegExp(`^${named}:\\s*`), '')) };
  if (!message) return null;
  for (const field of fields) {
    const prefix = `${field}: `;
    if (message.startsWith(prefix)) return { field, message: sentence(message.slice(prefix.length)) };
  }
  return null;
}
