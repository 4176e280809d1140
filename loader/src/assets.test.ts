import { afterEach, describe, expect, it, vi } from 'vitest';
import { LAZY_IMPORT_GATE, addIntegrityMap, addLazyFileList, withTimeout } from './assets';
import { importBundle } from './gatehouse';
import type { CdnManifest } from './types';

afterEach(() => {
  vi.useRealTimers();
  document.head.replaceChildren();
});

describe('asset timeout', () => {
  it('rejects a load that takes longer than 3800 ms with a clear error, not before', async () => {
    vi.useFakeTimers();
    const never = new Promise<never>(() => {});
    let settled: unknown = null;
    const load = withTimeout(never, 3800, 'Failed to load runtime').catch((e: Error) => (settled = e));
    await vi.advanceTimersByTimeAsync(3799);
    expect(settled).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await load;
    expect((settled as Error).message).toBe('Failed to load runtime: timed out after 3800 ms');
  });

  it('passes a load that settles in time through', async () => {
    await expect(withTimeout(Promise.resolve(42), 3800, 'x')).resolves.toBe(42);
  });
});

describe('integrity', () => {
  const manifest: CdnManifest = {
    version: '7.78.0',
    bundles: {
      'login-box': {
        version: '7.78.0',
        entry: 'login-box/7.78.0/remoteEntry.js',
        integrity: 'sha384-entry',
        files: { 'login-box/7.78.0/assets/mount-abc.js': 'sha384-chunk' },
      },
    },
  };

  it('registers the manifest hash of the entry and of every chunk in an import map, with the nonce', async () => {
    // The import itself fails here (no network in this test); the map must be in place first.
    await importBundle(manifest, 'https://cdn.example.com/cdn/', 'login-box', 'n0nce').catch(() => undefined);
    const map = document.head.querySelector<HTMLScriptElement>('script[type="importmap"]');
    expect(map).not.toBeNull();
    expect(map!.nonce).toBe('n0nce');
    expect(JSON.parse(map!.textContent!)).toEqual({
      integrity: {
        'https://cdn.example.com/cdn/login-box/7.78.0/remoteEntry.js': 'sha384-entry',
        'https://cdn.example.com/cdn/login-box/7.78.0/assets/mount-abc.js': 'sha384-chunk',
      },
    });
  });

  it('never registers a URL twice (a second map for the same file would be ignored)', () => {
    addIntegrityMap('https://a.example/cdn/', { 'x.js': 'sha384-1' });
    addIntegrityMap('https://a.example/cdn/', { 'x.js': 'sha384-1', 'y.js': 'sha384-2' });
    const maps = [...document.head.querySelectorAll('script[type="importmap"]')].map((s) => JSON.parse(s.textContent!));
    expect(maps).toEqual([{ integrity: { 'https://a.example/cdn/x.js': 'sha384-1' } }, { integrity: { 'https://a.example/cdn/y.js': 'sha384-2' } }]);
  });

  it('keeps the mapped URLs in one set on globalThis, shared with the runtime (a separately built copy of this file), so its lazy-import gate skips what the loader mapped', () => {
    addIntegrityMap('https://shared.example/cdn/', { 'login-box/7.78.0/assets/mount-1.js': 'sha384-m' });
    const shared = (globalThis as unknown as Record<symbol, Set<string>>)[Symbol.for('gatehouse.mapped')]!;
    expect(shared.has('https://shared.example/cdn/login-box/7.78.0/assets/mount-1.js')).toBe(true);
  });

  it('fetches the file list of a bundle kept out of the manifest with the manifest hash as SRI, then registers its files', async () => {
    const fetchSpy = vi.fn(async () => new Response(JSON.stringify({ 'admin-portal/7.78.0/assets/mount-x.js': 'sha384-portal-chunk' })));
    vi.stubGlobal('fetch', fetchSpy);
    const split: CdnManifest = {
      version: '7.78.0',
      bundles: { 'admin-portal': { version: '7.78.0', entry: 'admin-portal/7.78.0/remoteEntry.js', integrity: 'sha384-portal', fileList: 'admin-portal/7.78.0/files.json', fileListIntegrity: 'sha384-list' } },
    };
    await importBundle(split, 'https://cdn.example.com/cdn/', 'admin-portal').catch(() => undefined);
    vi.unstubAllGlobals();
    expect(fetchSpy).toHaveBeenCalledWith('https://cdn.example.com/cdn/admin-portal/7.78.0/files.json', { credentials: 'omit', integrity: 'sha384-list' });
    const map = JSON.parse(document.head.querySelector('script[type="importmap"]')!.textContent!);
    expect(map.integrity).toEqual({
      'https://cdn.example.com/cdn/admin-portal/7.78.0/assets/mount-x.js': 'sha384-portal-chunk',
      'https://cdn.example.com/cdn/admin-portal/7.78.0/remoteEntry.js': 'sha384-portal',
    });
  });

  it('refuses to load a bundle whose file list fails its integrity check, registering nothing', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const split: CdnManifest = {
      version: '7.78.0',
      bundles: { 'admin-portal': { version: '7.78.0', entry: 'admin-portal/7.78.0/remoteEntry.js', integrity: 'sha384-portal', fileList: 'admin-portal/7.78.0/files.json', fileListIntegrity: 'sha384-list' } },
    };
    await expect(importBundle(split, 'https://cdn.example.com/cdn/', 'admin-portal')).rejects.toThrow('Failed to load https://cdn.example.com/cdn/admin-portal/7.78.0/files.json (integrity check or network error)');
    vi.unstubAllGlobals();
    expect(document.head.querySelector('script[type="importmap"]')).toBeNull();
  });

  it('refuses a bundle the manifest does not list', async () => {
    await expect(importBundle(manifest, 'https://cdn.example.com/cdn/', 'checkout')).rejects.toThrow('Bundle checkout is not in the CDN manifest');
  });
});

describe('lazily imported files', () => {
  const CDN = 'https://cdn.example.com/cdn/';
  const BASE = `${CDN}login-box/7.78.0/`;
  type Gate = (load: () => unknown, importer: string) => Promise<void>;
  const gate = () => (globalThis as unknown as Record<symbol, Gate>)[LAZY_IMPORT_GATE]!;
  const maps = () => [...document.head.querySelectorAll('script[type="importmap"]')].map((s) => JSON.parse(s.textContent!).integrity);
  const list = { 'login-box/7.78.0/assets/Sso-1.js': 'sha384-sso', 'login-box/7.78.0/assets/Mfa-2.js': 'sha384-mfa' };
  /** An import function as the build emits it: its text is all the gate reads. */
  const importOf = (code: string) => Object.assign(() => undefined, { toString: () => code });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("registers a lazy file's hash before the browser may fetch it: the list comes first, once, checked against the manifest's hash", async () => {
    let answer!: (r: Response) => void;
    const fetchSpy = vi.fn(() => new Promise<Response>((r) => (answer = r)));
    vi.stubGlobal('fetch', fetchSpy);
    addLazyFileList(CDN, BASE, 'login-box/7.78.0/lazy-files.json', 'sha384-lazy-list', 'n0nce');
    const importer = `${BASE}assets/mount-abc.js`;
    const first = gate()(importOf('()=>import(`./Sso-1.js`)'), importer);
    const second = gate()(importOf('()=>import(`./Mfa-2.js`).then(e=>({default:e.MfaStep}))'), importer);
    expect(fetchSpy).toHaveBeenCalledExactlyOnceWith(`${CDN}login-box/7.78.0/lazy-files.json`, { credentials: 'omit', integrity: 'sha384-lazy-list' });
    // Until the list is registered neither import may start.
    let started = false;
    void first.then(() => (started = true));
    await Promise.resolve();
    expect(started).toBe(false);
    expect(maps()).toEqual([]);
    answer(new Response(JSON.stringify(list)));
    await Promise.all([first, second]);
    expect(maps()).toEqual([{ [`${BASE}assets/Sso-1.js`]: 'sha384-sso', [`${BASE}assets/Mfa-2.js`]: 'sha384-mfa' }]);
    expect(document.head.querySelector<HTMLScriptElement>('script[type="importmap"]')!.nonce).toBe('n0nce');
  });

  it('imports a file whose hash is already registered (the exposed mount) without fetching the list', async () => {
    const fetchSpy = vi.fn(async () => new Response('{}'));
    vi.stubGlobal('fetch', fetchSpy);
    addIntegrityMap(CDN, { 'runtime/7.78.0/assets/mount-eager.js': 'sha384-eager' });
    addLazyFileList(CDN, `${CDN}runtime/7.78.0/`, 'runtime/7.78.0/lazy-files.json', 'sha384-runtime-list');
    await gate()(importOf('()=>import("./assets/mount-eager.js")'), `${CDN}runtime/7.78.0/runtime.js`);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('fails the import when the list fails its integrity check, and tries again on the next import', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const base = `${CDN}other/7.78.0/`;
    addLazyFileList(CDN, base, 'other/7.78.0/lazy-files.json', 'sha384-other');
    const load = vi.fn(importOf("()=>import('./x-1.js')"));
    await expect(gate()(load, `${base}assets/mount.js`)).rejects.toThrow(`Failed to load ${CDN}other/7.78.0/lazy-files.json (integrity check or network error)`);
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ 'other/7.78.0/assets/x-1.js': 'sha384-x' }))));
    await expect(gate()(load, `${base}assets/mount.js`)).resolves.toBeUndefined();
    expect(load).not.toHaveBeenCalled(); // the gate only decides; the helper imports afterwards
  });

  it('loads the list when the function imports a registered file and an unregistered one (the first target alone never decides)', async () => {
    const fetchSpy = vi.fn(async () => new Response(JSON.stringify({ 'mixed/7.78.0/assets/lazy-2.js': 'sha384-lazy' })));
    vi.stubGlobal('fetch', fetchSpy);
    const base = `${CDN}mixed/7.78.0/`;
    addIntegrityMap(CDN, { 'mixed/7.78.0/assets/eager-1.js': 'sha384-eager' });
    addLazyFileList(CDN, base, 'mixed/7.78.0/lazy-files.json', 'sha384-mixed');
    await gate()(importOf('async()=>{await import("./eager-1.js");return import("./lazy-2.js")}'), `${base}assets/mount.js`);
    expect(fetchSpy).toHaveBeenCalledOnce();
    expect(maps().at(-1)).toEqual({ [`${base}assets/lazy-2.js`]: 'sha384-lazy' });
  });

  it('loads the list when the target cannot be read from the import (never skips a check)', async () => {
    const fetchSpy = vi.fn(async () => new Response('{}'));
    vi.stubGlobal('fetch', fetchSpy);
    const base = `${CDN}computed/7.78.0/`;
    addLazyFileList(CDN, base, 'computed/7.78.0/lazy-files.json', 'sha384-computed');
    await gate()(importOf('()=>import(`./${e}.js`)'), `${base}assets/mount.js`);
    expect(fetchSpy).toHaveBeenCalledOnce();
  });
});
