import { serve } from '@hono/node-server';
import { createServer } from './app';
import { runCli } from './cli';
import { ConfigError, loadConfig } from './config';

/**
 * Node's limit on the request line and headers (16 KiB by default) is below the longest query the
 * API documents: `?ids=` takes 100 ids (6,600 characters), up to 79 KiB once percent-encoded.
 * Longer requests get node's 431 before any route runs.
 */
const MAX_HEADER_BYTES = 96 * 1024;

/** Process entry: config, server, listener, graceful shutdown. */
async function main(): Promise<void> {
  // `npm run gatehouse -- clients ...` (hosted-login applications), `users promote|demote` and `cdn ...` (issue 18) run and exit instead of serving.
  if (process.argv[2] === 'clients' || process.argv[2] === 'users' || process.argv[2] === 'cdn') process.exit(await runCli(process.argv.slice(2)));
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Gatehouse cannot start: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const server = await createServer(config);
  // Every serving process delivers: the worker claims due events and jobs from the database.
  server.connectivity.worker.start();
  const listener = serve({ fetch: server.fetch, port: config.port, hostname: config.host, serverOptions: { maxHeaderSize: MAX_HEADER_BYTES } }, () => {
    console.log(`Gatehouse listening on ${config.publicUrl}`);
    if (config.dev) {
      console.log(`Demo host page: ${config.publicUrl}/`);
      console.log(`Dev mailbox: ${config.publicUrl}/dev/mailbox`);
    }
  });
  listener.on('error', (err) => {
    console.error(`Gatehouse cannot listen on ${config.host}:${config.port}: ${err.message}`);
    void server.close().finally(() => process.exit(1));
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Gatehouse stopping (${signal})`);
    // Give in-flight requests a moment, then close the database.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    listener.close(() => {
      void server.close().then(() => process.exit(0));
    });
    (listener as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err) => {
  console.error('Gatehouse failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
