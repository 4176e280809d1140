/**
 * A static host for a built CDN folder (dist/cdn) on its own loopback origin, as an object store
 * behind a CDN serves it: files under `/cdn/`, the brotli or gzip copy when the browser accepts
 * it, and the headers the build's `headers` file gives each path (Netlify / Cloudflare Pages
 * `_headers` format: a path pattern, then its headers indented). Nothing of Gatehouse runs here.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { freePort } from './server';

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.json': 'application/json; charset=utf-8', '.css': 'text/css; charset=utf-8' };

interface HeaderRule { pattern: RegExp; headers: Array<[string, string]> }

/** Reads a `headers` file: `/path/*` lines, each followed by indented `Name: value` lines. */
export function readHeaderRules(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const escaped = line.trim().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
      rules.push({ pattern: new RegExp(`^${escaped}$`), headers: [] });
    } else {
      const at = line.indexOf(':');
      if (at > 0 && rules.length) rules.at(-1)!.headers.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
    }
  }
  return rules;
}

/** Serves `dir` at `<origin>/cdn/`; answers what was requested (for assertions) through `requests`. */
export async function startStaticCdn(dir: string): Promise<{ url: string; cdnUrl: string; requests: string[]; stop(): Promise<void> }> {
  const root = resolve(dir);
  const headersFile = join(root, 'headers');
  const rules = existsSync(headersFile) ? readHeaderRules(readFileSync(headersFile, 'utf8')) : [];
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://cdn.invalid');
    requests.push(url.pathname);
    const path = url.pathname.startsWith('/cdn/') ? decodeURIComponent(url.pathname.slice(4)) : null;
    const file = path === null ? null : resolve(root, '.' + path);
    // Only files inside the folder, never its dot folders (build records) or the headers file itself.
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !file || !file.startsWith(root + sep) || /\/\./.test(path!) || file === headersFile || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    const headers: Record<string, string> = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', vary: 'Accept-Encoding' };
    for (const rule of rules) if (rule.pattern.test(path!)) for (const [name, value] of rule.headers) headers[name.toLowerCase()] = value;
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const coded = /\bbr\b/.test(accepted) && existsSync(file + '.br') ? ['br', file + '.br'] : /\bgzip\b/.test(accepted) && existsSync(file + '.gz') ? ['gzip', file + '.gz'] : null;
    if (coded) headers['content-encoding'] = coded[0]!;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : readFileSync(coded ? coded[1]! : file));
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const url = `http://localhost:${port}`;
  return { url, cdnUrl: `${url}/cdn/`, requests, stop: () => new Promise((r) => server.close(() => r())) };
}
