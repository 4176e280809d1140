// The load generator of the throughput bench, run as a child process so it never competes with the
// bench's own event loop: autocannon (from bench/.peers) with one scenario, a warm-up and then the
// measured run. Protocol: the job is JSON in argv[2]; it prints `{"event":"measure-start"}` when the
// measured run begins (the parent reads the servers' CPU then) and one `{"event":"result",...}` line
// at the end with the counts, the duration and this process's own CPU seconds during the measured run.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const job = JSON.parse(process.argv[2]);
const require = createRequire(job.peersDir + '/package.json');
const autocannon = require('autocannon');
const data = job.dataFile ? JSON.parse(readFileSync(job.dataFile, 'utf8')) : {};

/** The value of one cookie from the response's Set-Cookie header(s), or undefined. */
function cookieFrom(headers, name) {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== 'set-cookie') continue;
    for (const line of [value].flat()) {
      const match = new RegExp(`(?:^|,\\s*)${name}=([^;]*)`).exec(line);
      if (match && match[1]) return match[1];
    }
  }
  return undefined;
}

let cursor = 0;
const next = (list) => list[cursor++ % list.length];

/**
 * Each scenario: the autocannon request(s). Refresh: a pool of live refresh cookies; a request takes
 * one out and its answer puts the rotated one back, so every refresh token is presented exactly once
 * (autocannon clears a connection's context after each request, so the chains cannot live there).
 * A request still in flight when a run stops loses its chain: the pool starts with enough for that.
 */
const pool = [...(data.cookies ?? [])];
const scenarios = {
  // client_credentials at Gatehouse's /oauth/token or the peer's /token: HTTP Basic, form body.
  grant: () => [{ method: 'POST', path: data.path, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: data.authorization }, body: data.body }],
  // GET with a bearer token or a session cookie, spread over many users.
  read: () => [{
    method: 'GET',
    path: data.path,
    setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...next(data.headers) } }),
  }],
  // POST a JSON sign-in, each from the next of many users.
  signIn: () => [{
    method: 'POST',
    path: data.path,
    headers: { 'content-type': 'application/json', ...(data.origin ? { origin: data.origin } : {}) },
    setupRequest: (req) => ({ ...req, body: JSON.stringify(next(data.bodies)) }),
  }],
  refresh: () => [{
    method: 'POST',
    path: data.path,
    headers: { 'content-type': 'application/json' },
    body: '{}',
    setupRequest: (req) => {
      const cookie = pool.shift();
      if (cookie === undefined) throw new Error('refresh: no live session left in the pool');
      return { ...req, headers: { ...req.headers, cookie: `${data.cookieName}=${cookie}` } };
    },
    onResponse: (_status, _body, _context, headers) => {
      const rotated = cookieFrom(headers, data.cookieName);
      if (rotated) pool.push(rotated);
    },
  }],
};

function run(seconds) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url: job.urls, connections: job.connections, duration: seconds, requests: scenarios[job.scenario](), timeout: 30 }, (err, result) => (err ? reject(err) : resolve(result)));
    instance.on('error', reject);
  });
}

const say = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
if (job.warmupSeconds > 0) await run(job.warmupSeconds);
const cpuBefore = process.cpuUsage();
say({ event: 'measure-start' });
const result = await run(job.seconds);
const cpu = process.cpuUsage(cpuBefore);
say({
  event: 'result',
  ok: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  statusCodes: result.statusCodeStats,
  durationSeconds: result.duration,
  latencyP50Ms: result.latency.p50,
  latencyP99Ms: result.latency.p99,
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
});
