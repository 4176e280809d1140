/**
 * Store methods whose flow module loads on first use (its own chunk), so flows that most sign-ins
 * never reach add nothing to the bytes fetched before the login form is interactive.
 *
 * Once the module has loaded, calls go straight through (synchronous methods stay synchronous);
 * before that a call waits for the chunk. A chunk that fails to load is shown on the login slice
 * and loaded again on the next call.
 */
import { toGatehouseError } from '../../errors';
import type { FlowContext } from '../flow-context';

// Methods of any shape: each flow module's own types check the arguments.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Method = (...args: any[]) => any;

export type LazyFlow<T> = T & {
  /** Starts loading the module (e.g. when the browser is idle after the first screen). */
  preload(): Promise<T | null>;
};

export function lazyFlow<T extends { [K in keyof T]: Method }>(
  ctx: FlowContext,
  load: () => Promise<T>,
  names: readonly (keyof T)[],
): LazyFlow<T> {
  let instance: T | null = null;
  let loading: Promise<T | null> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (flow) => (instance = flow),
      (error: unknown) => {
        loading = null;
        ctx.patch(ctx.atoms.login, { loading: false, error: toGatehouseError(error).message });
        return null;
      },
    ));
  const methods = {} as LazyFlow<T>;
  // Not enumerable: spreading the flow into the store adds only the flow's own methods.
  Object.defineProperty(methods, 'preload', { value: preload });
  for (const name of names) {
    (methods as Record<keyof T, Method>)[name] = (...args: unknown[]) =>
      instance ? instance[name](...args) : preload().then((flow) => flow?.[name](...args));
  }
  return methods;
}
