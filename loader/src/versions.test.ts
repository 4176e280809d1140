import { afterEach, describe, expect, it, vi } from 'vitest';
import { BROWSER_ID_KEY, browserId, bucket, chooseVersions, pinKey } from './versions';
import type { CdnManifest, ManifestEntry } from './types';

// The contract's values, computed independently with Node's crypto (createHash('sha256'),
// digest('base64url'); readUInt32BE(0) % 100): the loader must agree with the server and the docs.
const PIN_KEYS: Record<string, string> = {
  't-1': 'Rum8NHbJLqJPsXraxs2c2s_3o0pcdTEAeH2lopmE-DY',
  'Ünïcode-tenant': '1e5kLHmkWZH9z6dodDmq2L3COYA2FOjxt7FOEO7ggqQ',
  'tenant-a': 'gKcHr33HfuEij5EnGA85ZINeW-tMSrDYEvD-dZNXmzo',
};
/** bucket('login-box', `user-${i}`) for i = 0..39. */
const LOGIN_BOX_BUCKETS = [24, 12, 87, 20, 21, 32, 70, 21, 64, 86, 79, 4, 43, 51, 3, 98, 20, 79, 0, 22, 92, 25, 96, 99, 62, 4, 49, 60, 80, 50, 62, 47, 56, 18, 83, 43, 23, 2, 77, 83];

const descriptor = (version: string): ManifestEntry => ({ version, entry: `login-box/${version}/remoteEntry.js`, integrity: `sha384-${version}`, files: {} });
const rollout = (extra: Partial<CdnManifest['bundles'][string]>): CdnManifest => ({
  version: '7.78.0',
  bundles: { 'login-box': { ...descriptor('7.78.0'), ...extra }, runtime: { version: '7.78.0', entry: 'runtime/7.78.0/runtime.js', integrity: 'sha384-rt' } },
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('pin key and bucket', () => {
  it('pin key is base64url without padding of SHA-256 of the UTF-8 tenant id (tenant ids never published in clear)', async () => {
    for (const [tenantId, expected] of Object.entries(PIN_KEYS)) expect(await pinKey(tenantId)).toBe(expected);
    expect(await pinKey('a'.repeat(128))).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('bucket is the first 4 bytes of SHA-256(`<bundle>:<id>`), big-endian, mod 100, the same for every call', async () => {
    const buckets = await Promise.all(LOGIN_BOX_BUCKETS.map((_, i) => bucket('login-box', `user-${i}`)));
    expect(buckets).toEqual(LOGIN_BOX_BUCKETS);
    expect(await bucket('login-box', 'user-2')).toBe(87);
    // The bundle is part of the hash: a person's canaries of different bundles are independent.
    expect(await bucket('admin-portal', 'user-1')).toBe(4);
  });
});

describe('browser id', () => {
  it('is 128 random bits in base64url, created once and kept in localStorage', () => {
    const id = browserId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(localStorage.getItem(BROWSER_ID_KEY)).toBe(id);
    expect(browserId()).toBe(id);
    localStorage.clear();
    expect(browserId()).not.toBe(id);
  });

  it('without localStorage (blocked storage throws), one id for the page', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    });
    const id = browserId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(browserId()).toBe(id);
  });
});

describe('chooseVersions', () => {
  const pinned = descriptor('7.77.0');
  const canary = descriptor('7.78.1');

  it('without rollout fields every bundle keeps its default descriptor', async () => {
    const manifest = rollout({});
    expect(await chooseVersions(manifest, null)).toEqual(manifest);
    expect(localStorage.getItem(BROWSER_ID_KEY)).toBeNull(); // no browser id is made when nothing needs one
  });

  it("a pinned tenant gets its version first, even inside the canary's percentage", async () => {
    const manifest = rollout({ canary: { version: '7.78.1', percent: 100 }, pins: { [PIN_KEYS['tenant-a']!]: '7.77.0' }, versions: { '7.78.1': canary, '7.77.0': pinned } });
    const chosen = await chooseVersions(manifest, { id: 'u1', tenantId: 'tenant-a' });
    expect(chosen.bundles['login-box']).toEqual(pinned);
    expect(chosen.bundles.runtime).toBe(manifest.bundles.runtime);
    // Another tenant is not pinned: the 100% canary.
    expect((await chooseVersions(manifest, { id: 'u1', tenantId: 'tenant-b' })).bundles['login-box']).toEqual(canary);
  });

  it('a pin naming a version without a descriptor in `versions` is ignored', async () => {
    const manifest = rollout({ pins: { [PIN_KEYS['tenant-a']!]: '7.70.0' }, versions: {} });
    expect((await chooseVersions(manifest, { id: 'u1', tenantId: 'tenant-a' })).bundles['login-box']!.version).toBe('7.78.0');
  });

  it("the canary goes to a signed-in user whose bucket of the user id is below its percentage, the default to one whose bucket is not", async () => {
    const manifest = rollout({ canary: { version: '7.78.1', percent: 30 }, versions: { '7.78.1': canary } });
    const inside = 'user-1'; // bucket 12
    const outside = 'user-2'; // bucket 87
    expect((await chooseVersions(manifest, { id: inside, tenantId: 't' })).bundles['login-box']).toEqual(canary);
    expect((await chooseVersions(manifest, { id: outside, tenantId: 't' })).bundles['login-box']!.version).toBe('7.78.0');
  });

  it('before sign-in the bucket is that of the browser id, so a reload keeps the same version', async () => {
    const manifest = rollout({ canary: { version: '7.78.1', percent: 50 }, versions: { '7.78.1': canary } });
    const first = (await chooseVersions(manifest, null)).bundles['login-box']!.version;
    const id = localStorage.getItem(BROWSER_ID_KEY)!;
    expect(first).toBe((await bucket('login-box', id)) < 50 ? '7.78.1' : '7.78.0');
    for (let i = 0; i < 3; i++) expect((await chooseVersions(manifest, null)).bundles['login-box']!.version).toBe(first);
  });

  it('leaves the defaults when Web Crypto is missing (a page outside a secure context)', async () => {
    vi.stubGlobal('crypto', {});
    const manifest = rollout({ canary: { version: '7.78.1', percent: 100 }, versions: { '7.78.1': canary } });
    expect((await chooseVersions(manifest, { id: 'u1', tenantId: 't' })).bundles['login-box']!.version).toBe('7.78.0');
  });

  it('does not change the manifest it was given (the defaults stay for the fallback)', async () => {
    const manifest = rollout({ canary: { version: '7.78.1', percent: 100 }, versions: { '7.78.1': canary } });
    const before = structuredClone(manifest);
    await chooseVersions(manifest, { id: 'u1', tenantId: 't' });
    expect(manifest).toEqual(before);
  });
});
