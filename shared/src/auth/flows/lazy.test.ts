import { describe, expect, it, vi } from 'vitest';
import { createStore, type PrimitiveAtom } from 'jotai/vanilla';
import { createAuthAtoms, initialLogin } from '../state';
import type { FlowContext } from '../flow-context';
import { lazyFlow } from './lazy';

function context(): FlowContext {
  const jotai = createStore();
  const atoms = createAuthAtoms();
  return {
    atoms,
    get: jotai.get,
    set: jotai.set,
    patch: <T extends object>(atom: PrimitiveAtom<T>, changes: Partial<T>) => jotai.set(atom, { ...jotai.get(atom), ...changes }),
  } as unknown as FlowContext;
}

type Counter = { add(n: number): number; name(): Promise<string> };

describe('lazyFlow', () => {
  it('loads the module on the first call only, then calls straight through (synchronous methods stay synchronous)', async () => {
    let total = 0;
    const load = vi.fn(async (): Promise<Counter> => ({ add: (n) => (total += n), name: async () => 'counter' }));
    const flow = lazyFlow<Counter>(context(), load, ['add', 'name']);
    expect(load).not.toHaveBeenCalled();
    expect(await flow.add(2)).toBe(2);
    expect(flow.add(3)).toBe(5); // loaded: a plain synchronous call
    expect(await flow.name()).toBe('counter');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows a chunk that fails to load on the login slice and loads it again on the next call', async () => {
    const ctx = context();
    const load = vi
      .fn<() => Promise<Counter>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce({ add: (n) => n * 10, name: async () => 'x' });
    const flow = lazyFlow<Counter>(ctx, load, ['add', 'name']);
    expect(await flow.add(1)).toBeUndefined();
    expect(ctx.get(ctx.atoms.login)).toMatchObject({ ...initialLogin, loading: false, error: expect.any(String) });
    expect(ctx.get(ctx.atoms.login).error).not.toBe('');
    expect(await flow.add(1)).toBe(10);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('adds only the flow methods when spread into the store (preload stays off the store)', async () => {
    const flow = lazyFlow<Counter>(context(), async () => ({ add: (n) => n, name: async () => '' }), ['add', 'name']);
    expect(Object.keys({ ...flow }).sort()).toEqual(['add', 'name']);
    await expect(flow.preload()).resolves.toMatchObject({ add: expect.any(Function) });
  });
});
