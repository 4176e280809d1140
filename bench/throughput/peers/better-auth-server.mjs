// better-auth as the bench's peer for sessions and email+password sign-in: its own SQLite database
// through better-sqlite3 (the repository's own build, passed as BETTER_SQLITE3), its schema made by
// its migrations, email and password on, its rate limiter off (every request comes from loopback,
// as Gatehouse's limits are raised for the bench), served by its Node handler.
// Environment: PORT, PEERS_DIR, BETTER_SQLITE3 (path of the better-sqlite3 package), DB_FILE.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(`${process.env.PEERS_DIR}/package.json`);
const load = async (name) => import(pathToFileURL(require.resolve(name)).href);
const { betterAuth } = await load('better-auth');
const { getMigrations } = await load('better-auth/db/migration');
const { toNodeHandler } = await load('better-auth/node');
const Database = createRequire(import.meta.url)(process.env.BETTER_SQLITE3);

const port = Number(process.env.PORT);
const baseURL = `http://127.0.0.1:${port}`;
const database = new Database(process.env.DB_FILE);
database.pragma('journal_mode = WAL');
const options = {
  database,
  baseURL,
  secret: 'gatehouse-bench-secret-gatehouse-bench-secret',
  trustedOrigins: [baseURL],
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
};
const auth = betterAuth(options);
const { runMigrations } = await getMigrations(auth.options);
await runMigrations();
createServer(toNodeHandler(auth)).listen(port, '127.0.0.1');
