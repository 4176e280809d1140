// `npm run bench:throughput -- --scale`: one Gatehouse process against two on one PostgreSQL, pinned
// with taskset on this 2-core machine: process A on core 0, process B on core 1, the load generator
// on core 1 (PostgreSQL, shared with the rest of the machine, is not pinned; only its backends serving this
// deployment are measured). Both processes run all
// along; the 1-process runs send every request to A, the 2-process runs spread the connections over
// A and B. Alternating 1 2 1 2, it measures throughput and the CPU seconds per request of the server
// processes, of PostgreSQL and of the generator (from /proc), and predicts the 2-process ratio when
// each process has a core of its own: each process is then bound by its own CPU per request, so
// 2 processes carry 2 / c2 against 1 / c1 for one (c = server CPU seconds per request in that run),
// provided PostgreSQL and the generator have cores of their own too (their CPU per request says how
// many). On this machine the measured ratio stays below that: B shares core 1 with the generator.
import { cpuSecondsOf, runLoad } from './lib/processes.mjs';
import { createDatabase, expectOk, json, seedClientCredentials, seedUsers, startGatehouse } from './lib/gatehouse.mjs';
import { PEERS_DIR } from './lib/peers.mjs';
import { fmt, median } from './lib/stats.mjs';

const CONNECTIONS = 64;
const GENERATOR_CORE = '1';

export async function runScale({ root, databaseUrl, timing, log, cleanups, dataFile, userCount = 128 }) {
  const database = createDatabase(databaseUrl);
  cleanups.push(database.drop);
  log(`scale-out: Gatehouse from ${root} on PostgreSQL (${database.env.DATABASE_SCHEMA})`);
  const a = await startGatehouse({ root, database, cores: '0', name: 'gatehouse-a' });
  cleanups.push(a.stop);
  const users = await seedUsers(a.url, userCount);
  const client = await seedClientCredentials(a.url, users[0]);
  const b = await startGatehouse({ root, database, cores: '1', name: 'gatehouse-b', publicUrl: a.url });
  cleanups.push(b.stop);

  const basic = `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`;
  const grant = { scenario: 'grant', data: { path: '/oauth/token', authorization: basic, body: 'grant_type=client_credentials' } };
  const read = { scenario: 'read', data: { path: '/identity/resources/users/v2/me', headers: users.map((u) => ({ authorization: `Bearer ${u.accessToken}` })) } };
  // Both processes answer both kinds before any load: the second shares the first's keys and rows.
  for (const server of [a, b]) {
    await expectOk(`${server.name} client_credentials`, await json(`${server.url}/oauth/token`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: grant.data.body }));
    await expectOk(`${server.name} me`, await json(`${server.url}/identity/resources/users/v2/me`, { headers: { authorization: `Bearer ${users[1].accessToken}` } }));
  }

  const workloads = [
    { id: 'reads', title: 'authenticated reads (`GET users/v2/me`)', ...read },
    { id: 'grants', title: 'client_credentials grants', ...grant },
  ];
  const configs = [
    { processes: 1, urls: [a.url] },
    { processes: 2, urls: [a.url, b.url] },
  ];
  const results = [];
  for (const workload of workloads) {
    const file = dataFile(workload.data);
    const runs = { 1: [], 2: [] };
    for (let i = 0; i < timing.alternations; i++) {
      for (const config of configs) {
        const job = { peersDir: PEERS_DIR, urls: config.urls, connections: CONNECTIONS, seconds: timing.seconds, warmupSeconds: timing.warmupSeconds, scenario: workload.scenario, dataFile: file };
        const r = await runLoad({ job, cores: GENERATOR_CORE, watch: { a: () => cpuSecondsOf(a.pid), b: () => cpuSecondsOf(b.pid), postgres: database.postgresCpuSeconds } });
        const perRequest = (s) => (r.ok > 0 ? (s * 1000) / r.ok : NaN);
        const run = {
          rps: r.ok / r.durationSeconds,
          non2xx: r.non2xx + r.errors + r.timeouts,
          serverCpuMsPerRequest: perRequest(r.cpuSecondsOf.a + (config.processes === 2 ? r.cpuSecondsOf.b : 0)),
          idleProcessCpuShare: config.processes === 1 ? r.cpuSecondsOf.b / r.durationSeconds : 0,
          postgresCpuMsPerRequest: perRequest(r.cpuSecondsOf.postgres),
          generatorCpuMsPerRequest: perRequest(r.cpuSeconds),
          coreShareA: r.cpuSecondsOf.a / r.durationSeconds,
          coreShareB: r.cpuSecondsOf.b / r.durationSeconds,
        };
        log(`${workload.id}, ${config.processes} process(es): ${Math.round(run.rps)}/s, non-2xx ${run.non2xx}, server ${run.serverCpuMsPerRequest.toFixed(3)} ms/req, PostgreSQL ${run.postgresCpuMsPerRequest.toFixed(3)} ms/req, cores A ${run.coreShareA.toFixed(2)} B ${run.coreShareB.toFixed(2)}`);
        runs[config.processes].push(run);
      }
    }
    const pick = (list, k) => median(list.map((x) => x[k]));
    const side = (n) => ({
      runs: runs[n].map((x) => Math.round(x.rps)),
      rps: pick(runs[n], 'rps'),
      non2xx: runs[n].reduce((s, x) => s + x.non2xx, 0),
      serverCpuMsPerRequest: pick(runs[n], 'serverCpuMsPerRequest'),
      postgresCpuMsPerRequest: pick(runs[n], 'postgresCpuMsPerRequest'),
      generatorCpuMsPerRequest: pick(runs[n], 'generatorCpuMsPerRequest'),
      coreShareA: pick(runs[n], 'coreShareA'),
      coreShareB: pick(runs[n], 'coreShareB'),
    });
    const one = side(1);
    const two = side(2);
    results.push({
      id: workload.id,
      title: workload.title,
      one,
      two,
      measuredRatio: two.rps / one.rps,
      predictedRatio: (2 * one.serverCpuMsPerRequest) / two.serverCpuMsPerRequest,
      perProcessCoreCapacity: 1000 / one.serverCpuMsPerRequest,
      postgresCoresPerProcessCore: one.postgresCpuMsPerRequest / one.serverCpuMsPerRequest,
    });
  }
  return { results, markdown: scaleMarkdown(results) };
}

function scaleMarkdown(results) {
  const lines = [
    `| workload | processes | req/s of each run (median) | non-2xx | server CPU ms/req | PostgreSQL CPU ms/req | generator CPU ms/req | core use of A / B |`,
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    for (const [n, s] of [[1, r.one], [2, r.two]]) {
      lines.push(`| ${r.title} | ${n} | ${s.runs.join(', ')} (${fmt(s.rps)}) | ${s.non2xx} | ${fmt(s.serverCpuMsPerRequest, 3)} | ${fmt(s.postgresCpuMsPerRequest, 3)} | ${fmt(s.generatorCpuMsPerRequest, 3)} | ${fmt(s.coreShareA, 2)} / ${fmt(s.coreShareB, 2)} |`);
    }
  }
  lines.push('', '| workload | measured 2 vs 1 (B shares core 1 with the generator) | predicted 2 vs 1, each process on a core of its own | one process per core, req/s | PostgreSQL cores per server core |', '|---|---|---|---|---|');
  for (const r of results) {
    lines.push(`| ${r.title} | ${fmt(r.measuredRatio, 2)} | ${fmt(r.predictedRatio, 2)} | ${fmt(r.perProcessCoreCapacity)} | ${fmt(r.postgresCoresPerProcessCore, 2)} |`);
  }
  return lines.join('\n');
}
