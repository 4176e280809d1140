/** The DNS boundary of SSO domain validation: TXT lookups, through the system's or configured resolvers. */
import { Resolver } from 'node:dns/promises';
import { log } from '../../log';

/** The TXT records of a name, each joined from its chunks; [] when it has none. */
export type TxtResolver = (name: string) => Promise<string[]>;

/** TXT lookups through `servers` (`ip` or `ip:port`), or the system's resolvers when empty. */
export function createTxtResolver(servers: readonly string[], timeoutMs = 5000): TxtResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length) resolver.setServers([...servers]);
  return async (name) => {
    try {
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    } catch (err) {
      // No such name or no TXT record: nothing proves control. Other failures are worth a log line.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTFOUND' && code !== 'ENODATA') log.warn(`SSO domain validation: TXT lookup of ${name} failed (${code ?? String(err)})`);
      return [];
    }
  };
}
