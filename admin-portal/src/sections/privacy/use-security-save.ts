import { useState } from 'react';
import { useErrorText } from '../../i18n/errors';

/**
 * A security dialog's save: like useSave, except that an answer asking the user to prove it is
 * them again goes to `onFreshAuth` (which returns true when it takes it), not into the dialog, and
 * that a success ends `busy` too: these dialogs go on to a next step (a code, recovery codes).
 */
export function useSecuritySave(onFreshAuth: (error: unknown) => boolean) {
  const toError = useErrorText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(save: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await save();
      setBusy(false);
    } catch (thrown) {
      setBusy(false);
      if (!onFreshAuth(thrown)) setError(toError(thrown));
    }
  }
  return { busy, error, setError, run };
}
