/**
 * Test helpers: a fetch stub that answers with real `Response` objects and records every request.
 * Only imported by tests.
 */
export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials;
}

export type Handler = (req: RecordedRequest) => Response | Promise<Response>;

export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
  });
}

/** A fetch whose answers come from `routes`: keys are 'METHOD /path'. Unmatched calls get 404. */
export function createFetchStub(routes: Record<string, Handler | Handler[]> = {}) {
  const calls: RecordedRequest[] = [];
  const counters = new Map<string, number>();
  const fetchStub = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const text = await request.text();
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const recorded: RecordedRequest = { method: request.method, url: new URL(request.url), headers: request.headers, body, credentials: request.credentials };
    calls.push(recorded);
    const key = `${request.method} ${recorded.url.pathname}`;
    const handler = routes[key];
    if (!handler) return json({ errors: [`no route ${key}`] }, { status: 404 });
    if (Array.isArray(handler)) {
      const n = counters.get(key) ?? 0;
      counters.set(key, n + 1);
      const h = handler[Math.min(n, handler.length - 1)]!;
      return h(recorded);
    }
    return handler(recorded);
  };
  return { fetch: fetchStub as typeof globalThis.fetch, calls, routes, callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.url.pathname}` === key) };
}
