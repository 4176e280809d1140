/**
 * Test harness for the login box's component tests: a fetch routed by 'METHOD /path' that records
 * every call, sample fixtures, and two ways to put the real login box on the page over it —
 * `renderLoginBox` (renders `LoginBoxApp` directly) and `mountLoginBox` (goes through the
 * single-spa parcel into a custom element, in a shadow root by default). Call `autoCleanup()`
 * once per test file so whatever a test rendered or mounted is torn down after it.
 * Only imported by tests.
 */
import { act, cleanup, render, waitFor, within } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { createGatehouse, matchRoute, type CreateGatehouseOptions, type GatehouseStore, type ResolvedTheme } from '@gatehouse/shared';
import { LoginBoxApp, type LoginBoxProps } from '../LoginBoxApp';
import { createParcel } from '../mount';

/** Route keys the harness can answer by default. */
export const ME_ROUTE = 'GET /identity/resources/users/v2/me';
export const VENDOR_ROUTE = 'GET /vendors/public';

export interface RecordedCall {
  key: string;
  // Tests read arbitrary request fields (`c.body.rememberDevice`), so the body stays untyped.
  body: any;
  url: URL;
}
/** Answers one route; gets the parsed JSON body (or undefined) and the whole recorded call. */
export type RouteHandler = (body: any, call: RecordedCall) => Response | Promise<Response>;
export type Routes = Record<string, RouteHandler>;

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const sampleMe = { id: 'u1', email: 'ada@example.com', name: 'Ada', tenantId: 't1', tenantIds: ['t1'], tenants: [], profilePictureUrl: null, roles: [], permissions: [] };
export const sampleVendor = { name: 'Acme', allowSignUps: true, loginStrategy: 'EmailAndPassword', signUpStrategies: { email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } }, passwordConfig: { allowPassphrases: false, maxLength: 128, minLength: 8, minPhraseLength: 20, minOptionalTestsToPass: 0 } };

/**
 * A fetch answering from `routes`, then from `defaults`; anything else gets a 404 naming the route.
 * `calls` records every request, in order.
 */
export function createRoutedFetch(routes: Routes, defaults: Routes = {}) {
  const calls: RecordedCall[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const body = text ? JSON.parse(text) : undefined;
    const call: RecordedCall = { key: `${request.method} ${url.pathname}`, body, url };
    calls.push(call);
    const handler = routes[call.key] ?? defaults[call.key];
    return handler ? handler(body, call) : json({ errors: [`no route ${call.key}`] }, 404);
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

export interface HarnessOptions {
  /** Answers GET /vendors/public unless `routes` does; defaults to `sampleVendor`. */
  vendor?: unknown;
  /** When given, answers GET /users/v2/me unless `routes` does; unanswered otherwise. */
  me?: unknown;
  /** Extra `createGatehouse` options (storage, flags, ...). */
  gatehouse?: Partial<Omit<CreateGatehouseOptions, 'fetch' | 'navigate'>>;
  /** Extra mount options (e.g. the page's CSP `nonce`). */
  mountOptions?: Record<string, unknown>;
}

function createTestGatehouse(path: string, routes: Routes, options: HarnessOptions, navigate: (url: string) => void) {
  window.history.replaceState({}, '', path);
  const defaults: Routes = { [VENDOR_ROUTE]: () => json(options.vendor ?? sampleVendor) };
  if (options.me !== undefined) defaults[ME_ROUTE] = () => json(options.me);
  const { fetch, calls } = createRoutedFetch(routes, defaults);
  const gatehouse = createGatehouse({ baseUrl: 'http://api.test', clientId: 'c', fetch, navigate, getLocationSearch: () => '', retry: { delayMs: 1 }, ...options.gatehouse });
  return { gatehouse, calls };
}

const rendered: GatehouseStore[] = [];
const mounted: { host: HTMLElement; unmount: () => Promise<void> }[] = [];
let mountCount = 0;

/**
 * Renders `LoginBoxApp` at `path` into a fresh element on the page. `navigate` only records:
 * the location does not change.
 */
export function renderLoginBox(path: string, routes: Routes = {}, options: HarnessOptions = {}) {
  const navigate = vi.fn();
  const { gatehouse, calls } = createTestGatehouse(path, routes, options, navigate);
  rendered.push(gatehouse.store);
  const domElement = document.createElement('div');
  document.body.appendChild(domElement);
  const props: LoginBoxProps = { domElement, store: gatehouse.store, api: gatehouse.api, routes: gatehouse.routes, options: { flags: {}, metadata: {}, ...options.mountOptions }, navigate, setThemeSetter: () => undefined };
  render(<LoginBoxApp {...props} />, { container: domElement });
  return { store: gatehouse.store, calls, navigate, domElement };
}

export interface MountedLoginBox {
  host: HTMLElement;
  shadow: ShadowRoot;
  domElement: HTMLElement;
  view: ReturnType<typeof within>;
  store: GatehouseStore;
  navigate: ReturnType<typeof vi.fn>;
  calls: RecordedCall[];
  themeSetter: () => ((theme: ResolvedTheme) => void) | undefined;
  /** Store subscriptions currently open. */
  activeSubscriptions: () => number;
  /** Unmounts the parcel, disposes the store and removes the host element. */
  unmount: () => Promise<void>;
}

/**
 * Mounts the real login box parcel at `path` into a `<gatehouse-login-box>` element (in an open
 * shadow root unless `shadow: false`). `navigate` pushes the URL and fires popstate, as a router would.
 */
export async function mountLoginBox(path: string, routes: Routes = {}, { shadow = true, ...options }: HarnessOptions & { shadow?: boolean } = {}): Promise<MountedLoginBox> {
  const navigate = vi.fn((url: string) => {
    window.history.pushState({}, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  const { gatehouse, calls } = createTestGatehouse(path, routes, options, navigate);
  let active = 0;
  const originalSubscribe = gatehouse.store.subscribe;
  gatehouse.store.subscribe = (listener) => {
    const unsubscribe = originalSubscribe(listener);
    active += 1;
    let done = false;
    return () => {
      if (!done) active -= 1;
      done = true;
      unsubscribe();
    };
  };
  const host = document.createElement('gatehouse-login-box');
  document.body.appendChild(host);
  const root = shadow ? host.attachShadow({ mode: 'open' }) : host;
  const domElement = document.createElement('div');
  root.appendChild(domElement);
  let setter: ((theme: ResolvedTheme) => void) | undefined;
  const props = {
    name: `login-box-${mountCount++}`,
    domElement,
    store: gatehouse.store,
    api: gatehouse.api,
    routes: gatehouse.routes,
    options: { flags: {}, metadata: {}, ...options.mountOptions },
    navigate,
    setThemeSetter: (s: (theme: ResolvedTheme) => void) => void (setter = s),
  };
  const parcel = createParcel();
  await parcel.bootstrap(props as never);
  // single-spa-react resolves mount from componentDidMount, so the promise must not be awaited
  // inside act (act renders only when its callback returns).
  let mounting: Promise<unknown> = Promise.resolve();
  await act(async () => {
    mounting = parcel.mount(props as never);
  });
  await mounting;
  // Most screens are chunks of their own (React.lazy): wait until the route's screen is on the page,
  // as a user would, unless the route has none (then the box renders nothing at all).
  if (matchRoute(new URL(path, 'http://box.test').pathname, gatehouse.routes)) {
    await waitFor(() => {
      if (!domElement.querySelector('.gh-card > *')) throw new Error(`no screen rendered at ${path}`);
    }, { timeout: 3000, container: domElement }).catch(() => undefined);
  }
  const entry = {
    host,
    unmount: async () => {
      const index = mounted.indexOf(entry);
      if (index === -1) return;
      mounted.splice(index, 1);
      let unmounting: Promise<unknown> = Promise.resolve();
      await act(async () => {
        unmounting = parcel.unmount(props as never);
      });
      await unmounting;
      gatehouse.store.dispose();
      host.remove();
    },
  };
  mounted.push(entry);
  return {
    host,
    shadow: root as ShadowRoot,
    domElement,
    view: within(domElement),
    store: gatehouse.store,
    navigate,
    calls,
    themeSetter: () => setter,
    activeSubscriptions: () => active,
    unmount: entry.unmount,
  };
}

/** Tears down everything rendered or mounted through this harness. */
export async function cleanupLoginBoxes(): Promise<void> {
  cleanup();
  for (const store of rendered.splice(0)) store.dispose();
  for (const { unmount } of [...mounted]) await unmount();
}

/** Registers `cleanupLoginBoxes` to run after each test of the calling file. */
export function autoCleanup(): void {
  afterEach(cleanupLoginBoxes);
}

/**
 * The error message shown under a field (the first element its aria-describedby names, when the
 * input is aria-invalid), or null: how a user of assistive technology hears the field's problem.
 */
export function fieldErrorOf(input: HTMLElement): string | null {
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const id = input.getAttribute('aria-describedby')?.split(' ')[0];
  const root = input.getRootNode() as Document | ShadowRoot;
  return (id && root.getElementById(id)?.textContent) || null;
}
