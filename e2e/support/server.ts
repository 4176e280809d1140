/**
 * Starts the real, built Gatehouse server (server/dist/main.js) on a free loopback port with its
 * own temporary SQLite data directory, and a second-origin host page server for CORS tests.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser';
import { loaderFromManifest, renderDemoPage } from '../../server/src/routes/platform/demo';

import { repoRoot } from './paths';

export { repoRoot };

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  logs: () => string;
  stop(): Promise<void>;
}

/**
 * Starts `node server/dist/main.js` in dev mode; resolves once it prints its URL. A free port can
 * be taken by another process between freePort() and the server's listen (CI saw EADDRINUSE with
 * Chromium and other servers starting beside it), so that one failure is retried on a new port.
 */
export async function startGatehouse(env: Record<string, string> = {}): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startGatehouseOnPort(await freePort(), env);
    } catch (err) {
      if (attempt >= 3 || !/EADDRINUSE/.test(String(err))) throw err;
    }
  }
}

async function startGatehouseOnPort(port: number, env: Record<string, string>): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-'));
  const url = `http://localhost:${port}`;
  const childEnv: Record<string, string> = { ...(process.env as Record<string, string>) };
  delete childEnv.DATABASE_URL; // e2e runs the default embedded mode
  const child: ChildProcess = spawn(process.execPath, [join(repoRoot, 'server/dist/main.js')], {
    cwd: repoRoot,
    env: { ...childEnv, PORT: String(port), HOST: '127.0.0.1', GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_PUBLIC_URL: url, GATEHOUSE_DEV: '1', NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await new Promise<void>((resolveStart, reject) => {
    // A first start migrates a new database (37 migrations); beside two Chromium workers on 2
    // cores that took over 20 s once (issue 16's fresh-clone run).
    const timer = setTimeout(() => reject(new Error(`server did not start in 45 s:\n${output}`)), 45_000);
    const check = () => {
      if (/listening/i.test(output)) {
        clearTimeout(timer);
        resolveStart();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    port,
    dataDir,
    logs: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Serves the demo host page from another origin (another port), talking to `baseUrl`. */
export async function startSecondOrigin(baseUrl: string, clientId = 'demo-client', port?: number): Promise<{ url: string; stop(): Promise<void> }> {
  const listenPort = port ?? (await freePort());
  const server: Server = createServer(async (req, res) => {
    if (req.method !== 'GET') {
      res.writeHead(405).end();
      return;
    }
    if (req.url === '/favicon.ico') {
      res.writeHead(404).end();
      return;
    }
    const template = readFileSync(join(repoRoot, 'demo/index.html'), 'utf8');
    const { html, csp } = renderDemoPage(template, { publicUrl: baseUrl, clientId }, await loaderFromManifest(join(repoRoot, 'dist/cdn')));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
    res.end(html);
  });
  await new Promise<void>((r) => server.listen(listenPort, '127.0.0.1', r));
  return { url: `http://localhost:${listenPort}`, stop: () => new Promise((r) => server.close(() => r())) };
}

let workerChromium: Promise<Browser> | undefined;

/**
 * The Chromium of this Vitest worker: launched by the first file that asks, then reused by the
 * files the worker runs after it (the e2e config keeps modules loaded between files), each in
 * browser contexts of its own. Playwright kills it when the worker exits.
 */
export function workerBrowser(): Promise<Browser> {
  workerChromium ??= launchChromium().then((browser) => {
    browser.once('disconnected', () => (workerChromium = undefined));
    return browser;
  });
  workerChromium.catch(() => (workerChromium = undefined));
  return workerChromium;
}

/** Closes every context opened in the worker's browser; the browser stays for the worker's next file. */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
}

/**
 * A browser and a Gatehouse server of its own for a test file: the server is started before its
 * tests and stopped after them; the browser is the worker's (`workerBrowser`), and every context
 * the file leaves open is closed after it, so no page or cookie outlives the file. Read `browser`
 * and `server` inside tests (they are set by then).
 */
export function useBrowserAndServer(env: Record<string, string> = {}): { readonly browser: Browser; readonly server: RunningServer } {
  const state = {} as { browser: Browser; server: RunningServer };
  beforeAll(async () => {
    const [browser, server] = await Promise.allSettled([workerBrowser(), startGatehouse(env)]);
    if (server.status === 'fulfilled') state.server = server.value;
    if (browser.status === 'rejected') throw browser.reason;
    if (server.status === 'rejected') throw server.reason;
    state.browser = browser.value;
  });
  afterAll(async () => {
    await closeContexts(state.browser);
    await state.server?.stop();
  });
  return state;
}

/**
 * `npm run gatehouse -- users promote <email>`: the built server's CLI against a running server's
 * database (its data directory, SQLite), making that user a super user (the vendor's operator).
 * Answers the CLI's output; a non-zero exit rejects with it.
 */
export async function promoteSuperUser(server: RunningServer, email: string): Promise<string> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), GATEHOUSE_DATA_DIR: server.dataDir, GATEHOUSE_PUBLIC_URL: server.url, GATEHOUSE_DEV: '1', NODE_ENV: 'development' };
  delete env.DATABASE_URL;
  const { stdout } = await promisify(execFile)(process.execPath, [join(repoRoot, 'server/dist/main.js'), 'users', 'promote', email], { cwd: repoRoot, env });
  return stdout;
}

/**
 * `npm run gatehouse -- <args>`: the built server's CLI against a running server's database, the
 * way `promoteSuperUser` runs it, with `env` added (e.g. the server's GATEHOUSE_CDN_DIR). Answers
 * the exit code and output instead of rejecting, so a test can assert on a refusal too.
 */
export async function runGatehouseCli(server: RunningServer, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv: Record<string, string> = { ...(process.env as Record<string, string>), GATEHOUSE_DATA_DIR: server.dataDir, GATEHOUSE_PUBLIC_URL: server.url, GATEHOUSE_DEV: '1', NODE_ENV: 'development', ...env };
  delete childEnv.DATABASE_URL;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(repoRoot, 'server/dist/main.js'), ...args], { cwd: repoRoot, env: childEnv });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(error) };
  }
}
