import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StrictMode } from 'react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { GatehouseProvider } from './GatehouseProvider.js';
import { createGatehouseClient } from './client.js';
import { useAuth } from './hooks.js';
import { createTestApp } from './test/loader-app.js';
import type { LoaderGlobal, GatehouseLoaderOptions } from './types.js';

const g = globalThis as { Gatehouse?: LoaderGlobal };
/** Script tags the provider added to <head>. happy-dom runs no script files: each test plays the browser's part (run it, then 'load' or 'error'); e2e/react-demo.e2e.test.ts loads the real loader in Chromium. */
let added: HTMLScriptElement[] = [];
beforeEach(() => {
  added = [];
  vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(node: T): T => {
    if (node instanceof HTMLScriptElement) added.push(node);
    return node;
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  delete g.Gatehouse;
});

const OPTIONS: GatehouseLoaderOptions = { contextOptions: { baseUrl: 'https://id.example.com', clientId: 'c' } };
const SCRIPT = { src: 'https://id.example.com/cdn/loader/7.78.0/loader.js', integrity: 'sha384-abc', nonce: 'n0nce' };

function Who() {
  const { user, isLoading, error } = useAuth();
  return <p>{error ? `error: ${error.message}` : isLoading ? 'loading' : (user?.name ?? 'signed out')}</p>;
}

/** What the loader script does when it runs: defines the global; counts initialize calls. */
function runLoaderScript(calls: Array<{ options: GatehouseLoaderOptions; name?: string }>) {
  const apps = new Map<string, ReturnType<typeof createTestApp>>(); // one app per name, as the loader keeps
  g.Gatehouse = {
    version: '7.78.0',
    initialize: (options, name = 'default') => {
      calls.push({ options, name });
      if (!apps.has(name)) apps.set(name, createTestApp({ name }));
      return apps.get(name)!;
    },
  };
}

describe('<GatehouseProvider>', () => {
  it('adds one loader script tag with SRI, crossorigin and the nonce, and initializes once, in StrictMode (double mount)', async () => {
    const calls: Array<{ options: GatehouseLoaderOptions; name?: string }> = [];
    render(
      <StrictMode>
        <GatehouseProvider options={OPTIONS} loaderScript={SCRIPT} name="acme">
          <Who />
        </GatehouseProvider>
      </StrictMode>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    expect(added).toHaveLength(1);
    const tag = added[0]!;
    expect([tag.getAttribute('src'), tag.getAttribute('integrity'), tag.getAttribute('crossorigin'), tag.nonce]).toEqual([SCRIPT.src, SCRIPT.integrity, 'anonymous', SCRIPT.nonce]);
    act(() => {
      runLoaderScript(calls);
      tag.dispatchEvent(new Event('load'));
    });
    expect(await screen.findByText('Ada')).toBeTruthy();
    expect(calls).toEqual([{ options: OPTIONS, name: 'acme' }]);
  });

  it('uses a loader already on the page instead of adding a second script', async () => {
    const calls: Array<{ options: GatehouseLoaderOptions; name?: string }> = [];
    runLoaderScript(calls);
    render(<GatehouseProvider options={OPTIONS} loaderScript={SCRIPT}><Who /></GatehouseProvider>);
    expect(await screen.findByText('Ada')).toBeTruthy();
    expect(added).toHaveLength(0);
    expect(calls).toHaveLength(1);
  });

  it('a script that fails to load (network or integrity) leaves the page signed out with a coded error, and removes the tag', async () => {
    // Another src: the first test's loader stays cached by src, as it would on a real page.
    render(<GatehouseProvider options={OPTIONS} loaderScript={{ ...SCRIPT, src: 'https://id.example.com/cdn/loader/7.78.1/loader.js' }}><Who /></GatehouseProvider>);
    expect(added).toHaveLength(1);
    const removed = vi.spyOn(added[0]!, 'remove');
    act(() => void added[0]!.dispatchEvent(new Event('error')));
    await waitFor(() => expect(screen.getByText(/^error: Failed to load the Gatehouse loader/)).toBeTruthy());
    expect(removed).toHaveBeenCalledOnce();
  });

  it('refuses a loader script without an integrity hash', async () => {
    render(<GatehouseProvider options={OPTIONS} loaderScript={{ src: SCRIPT.src, integrity: '' }}><Who /></GatehouseProvider>);
    await waitFor(() => expect(screen.getByText('error: GatehouseProvider: loaderScript.integrity is required (SRI) for ' + SCRIPT.src)).toBeTruthy());
    expect(added).toHaveLength(0);
  });

  it("throws the name-mismatch error when given a client of another app than its name (seed 000 section 5), and renders with its own", async () => {
    const other = createGatehouseClient({ name: 'billing', connect: async () => createTestApp({ name: 'billing' }) });
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // React reports the render error too
    expect(() => render(<GatehouseProvider options={OPTIONS} loaderScript={SCRIPT} name="main" client={other}><Who /></GatehouseProvider>)).toThrow(
      "Gatehouse app name mismatch: the store belongs to the app 'billing', not to 'main'",
    );
    cleanup();
    render(<GatehouseProvider options={OPTIONS} loaderScript={SCRIPT} name="billing" client={other}><Who /></GatehouseProvider>);
    expect(await screen.findByText('Ada')).toBeTruthy();
  });

  it('asks the loader for the app of its name, and shows an error instead of a loader app of another name', async () => {
    // Another loader version: the script of the first test stays loaded in this file's module state.
    render(<GatehouseProvider options={OPTIONS} loaderScript={{ ...SCRIPT, src: SCRIPT.src.replace('7.78.0', '7.79.0') }} name="main"><Who /></GatehouseProvider>);
    act(() => {
      g.Gatehouse = { version: '7.78.0', initialize: () => createTestApp({ name: 'default' }) }; // a loader that answers its default app
      added[0]!.dispatchEvent(new Event('load'));
    });
    await waitFor(() => expect(screen.getByText("error: Gatehouse app name mismatch: the store belongs to the app 'default', not to 'main'")).toBeTruthy());
  });
});
