import { useState } from 'react';
import { useErrorText } from '../../i18n/errors';

/**
 * The save of a dialog: `busy` while `save` runs (the dialog closes itself on success, from the
 * section), and on failure the message in `error` with the dialog usable again.
 */
export function useSave(): { busy: boolean; error: string | null; setError: (error: string | null) => void; run: (save: () => Promise<void>) => Promise<void> } {
  const toError = useErrorText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(save: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await save();
    } catch (thrown) {
      setError(toError(thrown));
      setBusy(false);
    }
  }
  return { busy, error, setError, run };
}
