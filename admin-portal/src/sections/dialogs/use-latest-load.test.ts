import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useLatestLoad } from './use-latest-load';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const toError = (thrown: unknown) => `failed: ${String(thrown)}`;

describe('useLatestLoad', () => {
  it('loads on mount, and an older answer that arrives after a newer one is ignored', async () => {
    const answers = [deferred<string>(), deferred<string>()];
    let call = 0;
    const fetch = () => answers[call++]!.promise;
    const { result } = renderHook(() => useLatestLoad(fetch, toError));
    expect(result.current.loading).toBe(true);
    let second!: Promise<void>;
    act(() => {
      second = result.current.reload();
    });
    await act(async () => {
      answers[1]!.resolve('new');
      await second;
    });
    await act(async () => answers[0]!.resolve('old'));
    expect(result.current.data).toBe('new');
    expect(result.current.loading).toBe(false);
  });

  it('a failed load shows the error and empties the data, or keeps it when asked', async () => {
    let fail = false;
    const fetch = () => (fail ? Promise.reject('boom') : Promise.resolve('ok'));
    const emptied = renderHook(() => useLatestLoad(fetch, toError));
    const kept = renderHook(() => useLatestLoad(fetch, toError, { keepDataOnError: true }));
    await waitFor(() => expect(emptied.result.current.data).toBe('ok'));
    await waitFor(() => expect(kept.result.current.data).toBe('ok'));
    fail = true;
    await act(() => emptied.result.current.reload());
    await act(() => kept.result.current.reload());
    expect(emptied.result.current).toMatchObject({ data: null, error: 'failed: boom', loading: false });
    expect(kept.result.current).toMatchObject({ data: 'ok', error: 'failed: boom', loading: false });
  });

  it('replace makes a load still running stale', async () => {
    const answer = deferred<string>();
    const fetch = () => answer.promise;
    const { result } = renderHook(() => useLatestLoad(fetch, toError));
    act(() => result.current.replace('saved'));
    await act(async () => answer.resolve('loaded'));
    expect(result.current.data).toBe('saved');
  });
});
