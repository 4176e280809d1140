/**
 * JWT verifications per second on one core: @gatehouse/node's verifyAccessToken against jose's bare
 * jwtVerify, on the same token and the same key, side by side in one run (issue 14: the goal is at
 * least 90% of bare jose). The token is a real Gatehouse access token of a signed-up user, the key
 * the server's published one. Rounds alternate between the two after a warm-up, each round bounded
 * by a count and the whole run by time; the figures and their ratio go to the console and
 * /tmp/gatehouse-jwt-verify.txt.
 *
 * It asserts no time (DESIGN.md: benches report figures): it asserts that every verification
 * passed and that the SDK fetched the key set once, the first time, and never after.
 * Not part of `npm test`; run it with:
 *
 *   npx vitest run --config bench/jwt-verify.vitest.config.ts
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { importJWK, jwtVerify, type JWK } from 'jose';
import { expect, it } from 'vitest';
import { verifyAccessToken } from '../sdk/node/src/index';
import { tenantWithAdmin } from '../server/src/test/admin-helpers';
import { describeDialects } from '../server/src/test/harness';

const ROUND = Number(process.env.JWT_BENCH_ROUND ?? 2000);
const ROUNDS = Number(process.env.JWT_BENCH_ROUNDS ?? 10);
const WARM_UP = Number(process.env.JWT_BENCH_WARM_UP ?? 2000);
const BUDGET_MS = Number(process.env.JWT_BENCH_BUDGET_MS ?? 60_000);
const REPORT = '/tmp/gatehouse-jwt-verify.txt';

/** Runs `verify` `n` times in sequence (one core, one verification at a time); elapsed ms. */
async function timed(n: number, verify: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await verify();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

writeFileSync(REPORT, '');

// The database is not what is measured; one dialect is enough.
describeDialects('bench: JWT verification, @gatehouse/node vs bare jose', (harness) => {
  if (harness.dialect !== 'sqlite') return;
  for (const alg of ['ES256', 'RS256'] as const) {
    it(`${alg}: reports verifications per second of both and their ratio, with one key-set fetch`, async () => {
      const server = await harness.start({ GATEHOUSE_SIGNING_ALG: alg });
      const { accessToken: token } = await tenantWithAdmin(server);
      let fetches = 0;
      const fetch = async (input: string, init?: RequestInit) => {
        fetches += 1;
        return server.fetch(new Request(input, init));
      };
      const options = { baseUrl: server.config.publicUrl, clientId: server.config.clientId, fetch };
      const kid = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid as string;
      const jwks = (await (await server.fetch(new Request(`${server.config.publicUrl}/.well-known/jwks.json`))).json()) as { keys: JWK[] };
      const key = await importJWK(jwks.keys.find((k) => k.kid === kid)!, alg);
      const bareOptions = { issuer: server.config.publicUrl, audience: server.config.clientId, algorithms: [alg] };
      const sdk = () => verifyAccessToken(token, options);
      const bare = () => jwtVerify(token, key, bareOptions);

      await timed(WARM_UP, sdk);
      await timed(WARM_UP, bare);
      let sdkMs = 0;
      let bareMs = 0;
      let rounds = 0;
      const deadline = Date.now() + BUDGET_MS;
      while (rounds < ROUNDS && Date.now() < deadline) {
        // Alternating which goes first, so neither always runs on a warmer (or busier) machine.
        if (rounds % 2 === 0) {
          sdkMs += await timed(ROUND, sdk);
          bareMs += await timed(ROUND, bare);
        } else {
          bareMs += await timed(ROUND, bare);
          sdkMs += await timed(ROUND, sdk);
        }
        rounds += 1;
      }
      const n = rounds * ROUND;
      const sdkPerSecond = (n / sdkMs) * 1000;
      const barePerSecond = (n / bareMs) * 1000;
      const line = `${alg}: @gatehouse/node ${sdkPerSecond.toFixed(0)}/s, bare jose ${barePerSecond.toFixed(0)}/s, ratio ${(sdkPerSecond / barePerSecond).toFixed(3)} (${rounds} rounds of ${ROUND}, key-set fetches ${fetches})`;
      console.log(line);
      appendFileSync(REPORT, `${line}\n`);

      expect((await sdk()).sub).toBe((await bare()).payload.sub);
      expect(rounds).toBeGreaterThan(0);
      // The key set was read once, by the first verification; every later one used the cache.
      expect(fetches).toBe(1);
    });
  }
});
