import { describe, expect, it, vi } from 'vitest';
import { watchSignOut } from './sign-out-watch';

function fakeStore(isAuthenticated: boolean) {
  const listeners = new Set<() => void>();
  let snapshot = { isAuthenticated };
  return {
    subscribe: (l: () => void) => (listeners.add(l), () => listeners.delete(l)),
    getSnapshot: () => snapshot as never,
    set(value: boolean) {
      snapshot = { isAuthenticated: value };
      listeners.forEach((l) => l());
    },
  };
}

describe('watchSignOut', () => {
  it('reacts when a signed-in user becomes signed out, after the current task', async () => {
    vi.useFakeTimers();
    const store = fakeStore(true);
    const onSignedOut = vi.fn();
    watchSignOut(store, onSignedOut);
    store.set(false);
    expect(onSignedOut).not.toHaveBeenCalled(); // the store's own navigation goes first
    await vi.advanceTimersByTimeAsync(0);
    expect(onSignedOut).toHaveBeenCalledOnce();
    vi.useRealTimers();
  });

  it('ignores sign-in and changes that keep the user signed out', async () => {
    vi.useFakeTimers();
    const store = fakeStore(false);
    const onSignedOut = vi.fn();
    const stop = watchSignOut(store, onSignedOut);
    store.set(false);
    store.set(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(onSignedOut).not.toHaveBeenCalled();
    stop();
    store.set(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(onSignedOut).not.toHaveBeenCalled();
    vi.useRealTimers();
  });
});
