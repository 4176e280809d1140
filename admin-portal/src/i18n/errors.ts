/**
 * Server errors in the portal's language. The API answers English: in English its text is shown as
 * it is (it may name a field or a rule); in another language a known `errorCode` shows its catalog
 * entry (`errors.<code>`), an unknown one the server's text, and a failure without any text the
 * seed's generic message.
 */
import { useCallback } from 'react';
import { DEFAULT_LOCALE, type Translator } from '../contract';
import { useT } from './i18n-context';

/** The catalog key of an error code (`ER-01001` -> `errors.ER-01001`). */
export const errorKey = (code: string) => `errors.${code}`;

/** What to tell the user about `error` (a GatehouseError from the API client, or anything thrown). */
export function errorText(t: Translator, error: unknown): string {
  if (error && typeof error === 'object') {
    const code = 'errorCode' in error && typeof error.errorCode === 'string' ? error.errorCode : null;
    const message = 'message' in error && typeof error.message === 'string' && error.message ? error.message : null;
    if (code && t.has(errorKey(code)) && (t.locale !== DEFAULT_LOCALE || !message)) return t.t(errorKey(code));
    if (message) return message;
  }
  return t.t('common.genericError');
}

/** `errorText` bound to the portal's translator, stable while the language is (for loaders' dependencies). */
export function useErrorText(): (error: unknown) => string {
  const t = useT();
  return useCallback((error: unknown) => errorText(t, error), [t]);
}
