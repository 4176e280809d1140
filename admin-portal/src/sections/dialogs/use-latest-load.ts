import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Loads `fetch` on mount and whenever it changes (and on `reload`): sets loading and error, and
 * keeps only the newest answer (an older load that finishes later changes nothing). A failed load
 * shows `toError(thrown)` and empties `data`, unless `keepDataOnError`. `replace` puts a value in
 * place of the data and makes any load still running stale. `fetch` and `toError` must be stable
 * (useCallback / module level).
 */
export function useLatestLoad<T>(fetch: () => Promise<T>, toError: (thrown: unknown) => string, { keepDataOnError = false }: { keepDataOnError?: boolean } = {}) {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const latest = useRef(0);
  const reload = useCallback(async () => {
    const ticket = ++latest.current;
    setLoading(true);
    setError(null);
    try {
      const result = await fetch();
      if (ticket === latest.current) setData(result);
    } catch (thrown) {
      if (ticket === latest.current) {
        setError(toError(thrown));
        if (!keepDataOnError) setData(null);
      }
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, [fetch, toError, keepDataOnError]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const replace = useCallback((value: T) => {
    latest.current += 1;
    setData(value);
  }, []);

  return { data, setData, replace, loading, error, setError, reload };
}
