/**
 * What Chromium receives over the wire, from its own DevTools protocol: per response the encoded
 * body bytes (as sent, after Content-Encoding, never re-compressed here), the header bytes, the
 * coding, and whether the HTTP cache answered instead of the network.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

export interface WireResponse {
  url: string;
  /** CDP resource type: Document, Script, Stylesheet, Fetch, XHR, ... */
  type: string;
  status: number;
  /** Content-Encoding of the response ('' for identity). */
  encoding: string;
  /** Body bytes that came over the network (0 when served from the HTTP cache). */
  bodyBytes: number;
  /** Response header bytes that came over the network. */
  headerBytes: number;
  fromCache: boolean;
  /** The Accept-Encoding Chromium sent. */
  acceptEncoding: string;
}

interface Pending {
  url: string;
  type: string;
  acceptEncoding: string;
  status?: number;
  encoding?: string;
  headerBytes?: number;
  fromCache?: boolean;
}

/** Records every response of `page` until `stop()`; `take()` returns (and forgets) those finished so far. */
export async function recordWire(context: BrowserContext, page: Page) {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // A cold cache is the context's own: never disable it here, the second boot must use it.
  const pending = new Map<string, Pending>();
  let finished: WireResponse[] = [];

  cdp.on('Network.requestWillBeSent', (e) => {
    const headers = e.request.headers as Record<string, string>;
    const accept = Object.entries(headers).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1] ?? '';
    // The extra-info event may come first: keep what it learnt.
    const known = pending.get(e.requestId);
    pending.set(e.requestId, { ...known, url: e.request.url, type: e.type ?? 'Other', acceptEncoding: known?.acceptEncoding || accept });
  });
  cdp.on('Network.requestWillBeSentExtraInfo', (e) => {
    // The headers the network stack really sent (Accept-Encoding is added below the renderer).
    const p = pending.get(e.requestId);
    const accept = Object.entries(e.headers as Record<string, string>).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1];
    if (p && accept) p.acceptEncoding = accept;
    else if (!p && accept) pending.set(e.requestId, { url: '', type: 'Other', acceptEncoding: accept });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const p = pending.get(e.requestId);
    if (p) p.fromCache = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    const p = pending.get(e.requestId);
    if (!p) return;
    const headers = e.response.headers as Record<string, string>;
    p.status = e.response.status;
    p.encoding = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1] ?? '';
    p.headerBytes = e.response.encodedDataLength;
    p.fromCache = Boolean(p.fromCache || e.response.fromDiskCache || e.response.fromPrefetchCache || e.response.fromServiceWorker);
    if (!p.url) p.url = e.response.url;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const p = pending.get(e.requestId);
    if (!p || p.status === undefined) return;
    pending.delete(e.requestId);
    const fromCache = Boolean(p.fromCache);
    const headerBytes = fromCache ? 0 : (p.headerBytes ?? 0);
    finished.push({
      url: p.url,
      type: p.type,
      status: p.status,
      encoding: p.encoding ?? '',
      bodyBytes: fromCache ? 0 : Math.max(0, e.encodedDataLength - headerBytes),
      headerBytes,
      fromCache,
      acceptEncoding: p.acceptEncoding,
    });
  });

  return {
    /** Responses finished since the last call. */
    take(): WireResponse[] {
      const out = finished;
      finished = [];
      return out;
    },
    async stop() {
      await cdp.detach().catch(() => undefined);
    },
  };
}

/** Sums and sorts responses for the report: total encoded body bytes, and each file. */
export function summarize(responses: WireResponse[], origin: string) {
  const files = responses
    .map((r) => ({ url: r.url.replace(origin, ''), type: r.type, encoding: r.encoding || 'identity', bytes: r.bodyBytes, headerBytes: r.headerBytes, fromCache: r.fromCache }))
    .sort((a, b) => b.bytes - a.bytes);
  return {
    total: files.reduce((sum, f) => sum + f.bytes, 0),
    headerBytes: files.reduce((sum, f) => sum + f.headerBytes, 0),
    files,
  };
}
