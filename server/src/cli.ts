/**
 * `npm run gatehouse -- clients ...`: registers the applications that may use hosted login, and
 * `users promote|demote <email>`: makes a user a super user (the vendor's operator) or undoes it, in
 * the database the server uses (same environment: DATABASE_URL, GATEHOUSE_DATA_DIR, GATEHOUSE_CONFIG).
 */
import { systemClock, type Clock } from './clock';
import { ConfigError, loadConfig } from './config';
import { migrate, openDb, type Db } from './db';
import { createClientRegistry, hashClientSecret, newClientSecret, type OAuthClient } from './services/oauth/clients';
import { setSuperUser } from './services/operator/super-users';
import { CDN_USAGE, CdnUsageError, runCdnCommand } from './cli-cdn';

export const CLI_USAGE = `Usage:
  npm run gatehouse -- clients add <clientId> --redirect-uri <uri> [--redirect-uri <uri> ...]
                       [--post-logout-redirect-uri <uri> ...] [--name <name>] [--confidential]
  npm run gatehouse -- clients list
  npm run gatehouse -- clients remove <clientId>
  npm run gatehouse -- clients secret     (a new secret and its hash, for OAUTH_CLIENTS_FILE)
  npm run gatehouse -- users promote <email>   (makes an existing user a super user: the vendor's operator)
  npm run gatehouse -- users demote <email>    (makes them an ordinary user again)
${CDN_USAGE}

A client is public (PKCE only) unless --confidential: then its secret is printed once and only its
SHA-256 is stored. Redirect URIs are matched exactly: https, or http on localhost / 127.0.0.1 / [::1].
A promotion or demotion takes effect at the user's next call and is written to their tenant's audit log.`;

class UsageError extends Error {}

function describe(client: OAuthClient): string {
  const kind = client.secretHash ? 'confidential' : 'public';
  const uris = client.anyLoopback ? ['any http://localhost, 127.0.0.1 or [::1] URI'] : client.redirectUris;
  return `${client.clientId} (${kind}, ${client.source}) "${client.name}"\n  redirect URIs: ${uris.join(', ')}\n  post-logout URIs: ${client.anyLoopback ? uris.join(', ') : client.postLogoutRedirectUris.join(', ') || '(none)'}`;
}

/** Parses `--flag value` pairs (flags may repeat) and positional arguments. */
function parseArgs(args: string[], flags: readonly string[], switches: readonly string[]) {
  const values: Record<string, string[]> = {};
  const on = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (switches.includes(arg)) on.add(arg);
    else if (flags.includes(arg)) {
      const value = args[++i];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value.`);
      (values[arg] ??= []).push(value);
    } else if (arg.startsWith('--')) throw new UsageError(`Unknown option ${arg}.`);
    else positional.push(arg);
  }
  return { values, on, positional };
}

/** `users promote|demote <email>`: 0 once the user is (or already was) as asked, 1 for an unknown email. */
async function promoteOrDemote(db: Db, clock: Clock, promote: boolean, email: string, io: { out: (line: string) => void; err: (line: string) => void }): Promise<number> {
  const result = await setSuperUser({ db, clock }, email, promote);
  if (result.outcome === 'unknown') {
    io.err(`No user with the email ${email}. Only an existing user can be ${promote ? 'promoted' : 'demoted'}: they sign up (or are invited) first.`);
    return 1;
  }
  if (result.outcome === 'unchanged') {
    io.out(`${result.email} ${promote ? 'is already a super user' : 'is not a super user'}; nothing changed.`);
    return 0;
  }
  io.out(promote ? `${result.email} is now a super user (the vendor's operator).` : `${result.email} is no longer a super user.`);
  if (!result.auditTenantId) io.out('(They belong to no tenant, so no audit record could be written.)');
  return 0;
}

/** Runs the CLI; returns the exit code. `out` and `err` print lines (tests capture them). */
export async function runCli(argv: string[], io: { out: (line: string) => void; err: (line: string) => void; env?: NodeJS.ProcessEnv; clock?: Clock } = { out: console.log, err: console.error }): Promise<number> {
  const [group, command, ...rest] = argv;
  const known = group === 'clients' || group === 'users' || group === 'cdn';
  if (!known || !command || command === 'help' || command === '--help') {
    io.out(CLI_USAGE);
    return known && (command === 'help' || command === '--help') ? 0 : 1;
  }
  if (group === 'users' && command !== 'promote' && command !== 'demote') {
    io.err(`Unknown command "users ${command}".`);
    io.err(CLI_USAGE);
    return 1;
  }
  if (group === 'users' && (rest.length !== 1 || rest[0]!.startsWith('--') || !rest[0]!.includes('@'))) {
    io.err(`users ${command} takes one email address.`);
    io.err(CLI_USAGE);
    return 1;
  }
  if (group === 'clients' && command === 'secret') {
    const secret = newClientSecret();
    io.out(`client secret (give it to the application, keep it secret): ${secret}`);
    io.out(`"clientSecretHash": "${hashClientSecret(secret)}"`);
    return 0;
  }
  let config;
  try {
    config = loadConfig(io.env ?? process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`Gatehouse cannot start: ${error.message}`);
      return 1;
    }
    throw error;
  }
  const opened = await openDb(config);
  try {
    await migrate(opened.db, opened.dialect);
    if (group === 'users') return await promoteOrDemote(opened.db, io.clock ?? systemClock, command === 'promote', rest[0]!, io);
    if (group === 'cdn') return await runCdnCommand({ db: opened.db, clock: io.clock ?? systemClock, config }, command, rest, io);
    const registry = createClientRegistry({ db: opened.db, clock: io.clock ?? systemClock, config });
    if (command === 'list') {
      const clients = await registry.list();
      io.out(clients.length ? clients.map(describe).join('\n') : 'No clients registered.');
      return 0;
    }
    if (command === 'remove') {
      const { positional } = parseArgs(rest, [], []);
      if (positional.length !== 1) throw new UsageError('clients remove takes one client id.');
      if (!(await registry.remove(positional[0]!))) {
        io.err(`No client "${positional[0]}" in the database (clients of OAUTH_CLIENTS_FILE are removed from that file).`);
        return 1;
      }
      io.out(`Removed client ${positional[0]}.`);
      return 0;
    }
    if (command === 'add') {
      const { values, on, positional } = parseArgs(rest, ['--redirect-uri', '--post-logout-redirect-uri', '--name'], ['--confidential']);
      if (positional.length !== 1) throw new UsageError('clients add takes one client id.');
      const { client, secret } = await registry.add(
        {
          clientId: positional[0]!,
          name: values['--name']?.[0],
          redirectUris: values['--redirect-uri'] ?? [],
          postLogoutRedirectUris: values['--post-logout-redirect-uri'] ?? [],
          confidential: on.has('--confidential'),
        },
        (message) => new UsageError(message),
      );
      io.out(`Registered ${describe(client)}`);
      if (secret) io.out(`client secret (shown once; only its SHA-256 is stored): ${secret}`);
      return 0;
    }
    throw new UsageError(`Unknown command "clients ${command}".`);
  } catch (error) {
    if (error instanceof UsageError || error instanceof CdnUsageError) {
      io.err(error.message);
      io.err(CLI_USAGE);
      return 1;
    }
    // A refusal of the rules (AppError, compared by kind): its message says what and why.
    if ((error as { kind?: string })?.kind === 'AppError') {
      io.err((error as Error).message);
      return 1;
    }
    throw error;
  } finally {
    await opened.close();
  }
}
