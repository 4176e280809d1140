import { afterEach, describe, expect, it, vi } from 'vitest';
import { addIntegrityMap, withTimeout } from './assets';
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
