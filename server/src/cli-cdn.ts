/**
 * `npm run gatehouse -- cdn ...` (issue 18): the CDN rollouts from the command line, through the
 * same service as the operator API (services/cdn). Changes are audited in the first super user's
 * tenant, and each rewrites <cdnDir>/cdn-manifest.json (with .br and .gz) atomically, so a deploy
 * to a static host uploads the manifest as the server would serve it.
 */
import { CdnBundleName, CdnPromoteBody, CdnPruneBody, type CdnVersionsResponse } from '@gatehouse/shared/wire';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Db } from './db';
import { createCdnService } from './services/cdn';

export const CDN_USAGE = `  npm run gatehouse -- cdn versions [bundle]      (published versions, their state and size over the wire)
  npm run gatehouse -- cdn publish <dir>          (<dir> is <bundle>/<version>, e.g. dist/cdn/login-box/7.79.0)
  npm run gatehouse -- cdn promote <bundle> <version> [--percent N] [--tenants id,...]
                                                  (the default; or a canary for N% of users; or pinned for tenants)
  npm run gatehouse -- cdn rollback <bundle>      (the previous default again, at once)
  npm run gatehouse -- cdn prune --keep N         (removes unused versions beyond the newest N of each bundle)`;

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** A command line mistake: the message and the usage are printed, exit 1. */
export class CdnUsageError extends Error {}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function printVersions(res: CdnVersionsResponse, io: Io): void {
  if (!res.bundles.length) io.out('No bundle is published (run npm run build, or cdn publish).');
  for (const b of res.bundles) {
    io.out(`${b.bundle}: default ${b.default}${b.previous ? `, previous ${b.previous}` : ''}${b.canary ? `, canary ${b.canary.version} at ${b.canary.percent}%` : ''}`);
    for (const v of b.versions) {
      const states = v.state.map((s) => (s === 'canary' ? `canary ${b.canary?.percent}%` : s === 'pinned' ? `pinned (${b.pins.filter((p) => p.version === v.version).map((p) => p.tenantId).join(', ')})` : s));
      io.out(`  ${v.version.padEnd(16)} ${kb(v.wireBytes).padStart(10)} over the wire  ${states.join(', ')}`);
    }
  }
}

const bundleOf = (value: string | undefined): ReturnType<typeof CdnBundleName.parse> => {
  const parsed = CdnBundleName.safeParse(value);
  if (!parsed.success) throw new CdnUsageError(`bundle: "${value ?? ''}" is not one of ${CdnBundleName.options.join(', ')}.`);
  return parsed.data;
};

/** Runs one `cdn` command; 0 when it did what was asked. AppErrors (refusals) print their message, exit 1. */
export async function runCdnCommand(deps: { db: Db; clock: Clock; config: Pick<Config, 'cdnDir'> }, command: string, args: string[], io: Io): Promise<number> {
  const cdn = createCdnService({ db: deps.db, clock: deps.clock, cdnDir: deps.config.cdnDir, log: io.err });
  const flags: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--percent' || arg === '--tenants' || arg === '--keep') {
      const value = args[++i];
      if (value === undefined || value.startsWith('--')) throw new CdnUsageError(`${arg} needs a value.`);
      flags[arg] = value;
    } else if (arg.startsWith('--')) throw new CdnUsageError(`Unknown option ${arg}.`);
    else positional.push(arg);
  }
  const wrote = async () => io.out(`Wrote ${await cdn.writeManifest()}.`);
  const noAudit = () => io.out('(No super user with a tenant exists, so no audit record could be written: promote one with users promote <email>.)');

  switch (command) {
    case 'versions': {
      if (positional.length > 1) throw new CdnUsageError('cdn versions takes at most one bundle.');
      const res = await cdn.versions(positional[0] === undefined ? undefined : bundleOf(positional[0]));
      printVersions(res, io);
      return 0;
    }
    case 'publish': {
      if (positional.length !== 1) throw new CdnUsageError('cdn publish takes one folder: <bundle>/<version>.');
      const done = await cdn.publish('cli', positional[0]!);
      io.out(done.outcome === 'published' ? `Published ${done.bundle} ${done.version}: ${done.files} files, ${kb(done.wireBytes)} over the wire.` : `${done.bundle} ${done.version} is already published with the same bytes; nothing changed.`);
      if (done.outcome === 'published' && !done.audited) noAudit();
      await wrote();
      return 0;
    }
    case 'promote': {
      if (positional.length !== 2) throw new CdnUsageError('cdn promote takes a bundle and a version.');
      const body = CdnPromoteBody.safeParse({
        version: positional[1],
        ...(flags['--percent'] !== undefined ? { percent: /^\d+$/.test(flags['--percent']) ? Number(flags['--percent']) : NaN } : {}),
        ...(flags['--tenants'] !== undefined ? { tenants: flags['--tenants'].split(',').map((t) => t.trim()).filter(Boolean) } : {}),
      });
      if (!body.success) {
        const issue = body.error.issues[0]!;
        throw new CdnUsageError(`${issue.path.join('.') || 'arguments'}: ${issue.message}`);
      }
      const bundle = bundleOf(positional[0]);
      const after = await cdn.promote('cli', bundle, body.data);
      io.out(`${bundle}: default ${after.default}${after.previous ? `, previous ${after.previous}` : ''}${after.canary ? `, canary ${after.canary.version} at ${after.canary.percent}%` : ''}${after.pins.length ? `, ${after.pins.length} tenant(s) pinned` : ''}.`);
      await wrote();
      return 0;
    }
    case 'rollback': {
      if (positional.length !== 1) throw new CdnUsageError('cdn rollback takes one bundle.');
      const after = await cdn.rollback('cli', bundleOf(positional[0]));
      io.out(`${after.bundle}: rolled back, the default is ${after.default}.`);
      await wrote();
      return 0;
    }
    case 'prune': {
      const keep = CdnPruneBody.safeParse({ keep: /^\d+$/.test(flags['--keep'] ?? '') ? Number(flags['--keep']) : NaN });
      if (positional.length || !keep.success) throw new CdnUsageError('cdn prune takes --keep N (1 or more).');
      const { removed } = await cdn.prune('cli', keep.data.keep);
      io.out(removed.length ? `Removed ${removed.map((r) => `${r.bundle} ${r.version}`).join(', ')}.` : 'Nothing to remove.');
      await wrote();
      return 0;
    }
    default:
      throw new CdnUsageError(`Unknown command "cdn ${command}".`);
  }
}
