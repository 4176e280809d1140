import { useCallback, useRef, useState } from 'react';
import type { SsoConfiguration } from '@gatehouse/shared/wire';
import { useErrorText } from '../../i18n/errors';
import { fieldErrors } from './sso-api';

/**
 * One change of the SSO configuration from a card: runs it (one at a time), hands the configuration
 * the server answers to `onSaved`, and keeps the failure: under the fields the server's message
 * names, else as one message. Nothing typed is cleared on failure.
 */
export function useSsoAction<F extends string>(fields: readonly F[], onSaved: (config: SsoConfiguration) => void) {
  const toError = useErrorText();
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);

  const run = useCallback(
    async (name: string, change: () => Promise<SsoConfiguration | void>): Promise<boolean> => {
      if (running.current) return false;
      running.current = true;
      setBusy(name);
      setErrors({});
      setError(null);
      try {
        const result = await change();
        if (result) onSaved(result);
        return true;
      } catch (thrown) {
        const split = fieldErrors(thrown, fields);
        setErrors(split.fields);
        setError(split.other === null ? (Object.keys(split.fields).length ? null : toError(thrown)) : toError({ ...(thrown as object), message: split.other }));
        return false;
      } finally {
        running.current = false;
        setBusy(null);
      }
    },
    [fields, onSaved, toError],
  );

  const clearField = useCallback((field: F) => setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current)), []);
  return { busy, errors, error, run, clearField, setError };
}
