import { afterEach, describe, expect, it, vi } from 'vitest';
import { LAZY_IMPORT_GATE } from '../assets';
import type { CdnManifest, GatehouseOptions } from '../types';
import { addLoadedBundleLazyList, ensureLazyImportGate } from './lazy-lists';

const CDN = 'https://cdn.example.com/cdn/';
const manifest: CdnManifest = {
  version: '7.78.0',
  bundles: {
    runtime: { version: '7.78.0', entry: 'runtime/7.78.0/runtime.js', integrity: 'sha384-rt', files: {}, lazyFileList: 'runtime/7.78.0/lazy-files.json', lazyFileListIntegrity: 'sha384-rt-list' },
    'login-box': { version: '7.78.0', entry: 'login-box/7.78.0/remoteEntry.js', integrity: 'sha384-lb', files: {}, lazyFileList: 'login-box/7.78.0/lazy-files.json', lazyFileListIntegrity: 'sha384-lb-list' },
  },
};
const options = { contextOptions: { baseUrl: 'https://id.example.com' }, nonce: 'n0nce' } as GatehouseOptions;
type Gate = (load: () => unknown, importer: string) => Promise<void>;
const globals = globalThis as unknown as Record<symbol, Gate | undefined>;
const importOf = (code: string) => Object.assign(() => undefined, { toString: () => code });

describe('lazy-import gate from the runtime', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("installs the gate with every bundle's list when the loader did not: a lazy screen waits for its list, checked by the manifest's hash", async () => {
    expect(globals[LAZY_IMPORT_GATE]).toBeUndefined();
    const fetchSpy = vi.fn(async () => new Response(JSON.stringify({ 'login-box/7.78.0/assets/Unlock-1.js': 'sha384-unlock' })));
    vi.stubGlobal('fetch', fetchSpy);
    ensureLazyImportGate({ manifest, cdnBase: CDN, options });
    const gate = globals[LAZY_IMPORT_GATE]!;
    await gate(importOf('()=>import("./Unlock-1.js")'), `${CDN}login-box/7.78.0/assets/mount-a.js`);
    expect(fetchSpy).toHaveBeenCalledExactlyOnceWith(`${CDN}login-box/7.78.0/lazy-files.json`, { credentials: 'omit', integrity: 'sha384-lb-list' });
    const map = document.head.querySelector<HTMLScriptElement>('script[type="importmap"]')!;
    expect(JSON.parse(map.textContent!).integrity).toEqual({ [`${CDN}login-box/7.78.0/assets/Unlock-1.js`]: 'sha384-unlock' });
    expect(map.nonce).toBe('n0nce');
  });

  it("after a canary failed and the default loaded instead, registers the default's list too: its lazy files are checked as well", async () => {
    const fetchSpy = vi.fn(async () => new Response(JSON.stringify({ 'login-box/7.77.0/assets/Sso-9.js': 'sha384-sso' })));
    vi.stubGlobal('fetch', fetchSpy);
    // The loader put the default into the manifest it handed over (loader/src/gatehouse.ts).
    const fallenBack: CdnManifest = {
      ...manifest,
      bundles: { ...manifest.bundles, 'login-box': { version: '7.77.0', entry: 'login-box/7.77.0/remoteEntry.js', integrity: 'sha384-old', files: {}, lazyFileList: 'login-box/7.77.0/lazy-files.json', lazyFileListIntegrity: 'sha384-old-list' } },
    };
    addLoadedBundleLazyList({ manifest: fallenBack, cdnBase: CDN, options }, 'login-box');
    await globals[LAZY_IMPORT_GATE]!(importOf('()=>import("./Sso-9.js")'), `${CDN}login-box/7.77.0/assets/mount-b.js`);
    expect(fetchSpy).toHaveBeenCalledExactlyOnceWith(`${CDN}login-box/7.77.0/lazy-files.json`, { credentials: 'omit', integrity: 'sha384-old-list' });
  });

  it("leaves the gate of a loader that installed its own alone (the loader of 7.78.0), and adds nothing to this runtime's", () => {
    const loaderGate: Gate = async () => undefined;
    globals[LAZY_IMPORT_GATE] = loaderGate;
    ensureLazyImportGate({ manifest, cdnBase: CDN, options });
    expect(globals[LAZY_IMPORT_GATE]).toBe(loaderGate);
    addLoadedBundleLazyList({ manifest, cdnBase: CDN, options }, 'login-box');
    expect(globals[LAZY_IMPORT_GATE]).toBe(loaderGate);
  });
});
