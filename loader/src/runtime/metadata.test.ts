import { describe, expect, it } from 'vitest';
import { createFetchStub, json } from '../../../shared/src/testing/fetch-stub';
import { extendMetadata, gtmIds, injectGtm, mergeMetadata } from './metadata';

const OVERRIDE = 'https://cdn.vendor.example/gatehouse-metadata.json';
const blankDocument = () => document.implementation.createHTMLDocument('host');

describe('metadata overrides (seed 000 sections 3, 7.1: fetched without credentials and merged)', () => {
  it('fetches metadataOverrides.url without credentials and merges it over the metadata, nested objects merged', async () => {
    const stub = createFetchStub({ 'GET /gatehouse-metadata.json': () => json({ theme: { palette: { primary: '#0b7285' } }, navigation: { usage: { visibility: 'hidden' } } }) });
    const errors: unknown[] = [];
    const metadata = { theme: { mode: 'dark', palette: { primary: '#111111', secondary: '#222222' } }, metadataOverrides: { url: OVERRIDE } };
    const result = await extendMetadata(metadata, { fetch: stub.fetch, document: blankDocument(), reportError: (_r, e) => errors.push(e) });
    expect(stub.calls).toHaveLength(1);
    expect(stub.calls[0]!.url.href).toBe(OVERRIDE);
    expect(stub.calls[0]!.credentials).toBe('omit');
    expect(result).toEqual({
      theme: { mode: 'dark', palette: { primary: '#0b7285', secondary: '#222222' } },
      navigation: { usage: { visibility: 'hidden' } },
      metadataOverrides: { url: OVERRIDE },
    });
    expect(metadata.theme.palette.primary).toBe('#111111');
    expect(errors).toEqual([]);
  });

  it('a failed or malformed override is recorded and the metadata stays as it was (seed 000 section 8: the app continues)', async () => {
    for (const answer of [() => json({ errors: ['x'] }, { status: 500 }), () => json([1, 2]), () => new Response('not json')]) {
      const stub = createFetchStub({ 'GET /gatehouse-metadata.json': answer });
      const errors: string[] = [];
      const metadata = { theme: { mode: 'light' }, metadataOverrides: { url: OVERRIDE } };
      expect(await extendMetadata(metadata, { fetch: stub.fetch, document: blankDocument(), reportError: (request) => errors.push(request) })).toBe(metadata);
      expect(errors).toEqual(['metadataOverrides']);
    }
  });

  it('fetches nothing for an override URL that is not http(s)', async () => {
    const stub = createFetchStub({});
    for (const url of ['javascript:alert(1)', 'data:application/json,{}', '/relative.json', 42]) {
      await extendMetadata({ metadataOverrides: { url } }, { fetch: stub.fetch, document: blankDocument(), reportError: () => undefined });
    }
    expect(stub.calls).toHaveLength(0);
  });

  it('never merges keys that would reach Object.prototype', () => {
    const merged = mergeMetadata({ theme: {} }, JSON.parse('{"__proto__": {"polluted": true}, "theme": {"constructor": {"prototype": {"polluted": true}}}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(merged).toEqual({ theme: {} });
  });
});

describe('integrations.gtm (seed 000 section 5: only GTM-[alphanumerics] ids are injected)', () => {
  it('keeps enabled entries whose id matches GTM-[A-Z0-9]+, each once', () => {
    const gtm = [
      { id: 'GTM-AB12CD', enabled: true },
      { id: 'GTM-AB12CD', enabled: true },
      { id: 'GTM-OFF1', enabled: false },
      { id: 'GTM-lower' },
      { id: 'GTM-X"><script>alert(1)</script>', enabled: true },
      { id: 'UA-12345-1', enabled: true },
      { id: 'GTM-', enabled: true },
      { id: 42, enabled: true },
      'GTM-STRING',
      { id: 'GTM-ZZ9' },
    ];
    expect(gtmIds({ integrations: { gtm } })).toEqual(['GTM-AB12CD', 'GTM-ZZ9']);
    expect(gtmIds({ integrations: { gtm: 'GTM-AB12CD' } })).toEqual([]);
    expect(gtmIds({})).toEqual([]);
  });

  it('injects one async Tag Manager script per id under the page nonce, and never twice', async () => {
    const doc = blankDocument();
    const metadata = { integrations: { gtm: [{ id: 'GTM-AB12CD', enabled: true }, { id: 'GTM-bad', enabled: true }] } };
    await extendMetadata(metadata, { nonce: 'n0nce', document: doc, reportError: () => undefined });
    injectGtm(['GTM-AB12CD'], 'n0nce', doc);
    const scripts = [...doc.querySelectorAll('script')];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.src).toBe('https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD');
    expect(scripts[0]!.async).toBe(true);
    expect(scripts[0]!.nonce).toBe('n0nce');
  });
});
