// Medians, formatting and the markdown tables of the throughput bench.

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** 1234.5 -> "1,235"; small numbers keep two significant decimals. */
export const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '-');

/** One run's figures: requests per second answered 2xx and the CPU milliseconds per such request. */
export function summarize(run) {
  const perRequest = (seconds) => (run.ok > 0 ? (seconds * 1000) / run.ok : NaN);
  return {
    rps: run.ok / run.durationSeconds,
    non2xx: run.non2xx + run.errors + run.timeouts,
    statusCodes: run.statusCodes,
    latencyP50Ms: run.latencyP50Ms,
    latencyP99Ms: run.latencyP99Ms,
    serverCpuMsPerRequest: perRequest(run.cpuSecondsOf.server ?? 0),
    mainThreadCpuMsPerRequest: perRequest(run.cpuSecondsOf.mainThread ?? 0),
    postgresCpuMsPerRequest: run.cpuSecondsOf.postgres === undefined ? undefined : perRequest(run.cpuSecondsOf.postgres),
    generatorCpuMsPerRequest: perRequest(run.cpuSeconds),
    generatorCpuShare: run.cpuSeconds / run.durationSeconds,
    serverCpuShare: (run.cpuSecondsOf.server ?? 0) / run.durationSeconds,
  };
}

/** Median of one side's runs, field by field. */
export function medianOf(runs) {
  const pick = (k) => median(runs.map((r) => r[k]).filter((v) => v !== undefined));
  return {
    rps: pick('rps'),
    runs: runs.map((r) => Math.round(r.rps)),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    serverCpuMsPerRequest: pick('serverCpuMsPerRequest'),
    mainThreadCpuMsPerRequest: pick('mainThreadCpuMsPerRequest'),
    postgresCpuMsPerRequest: runs.some((r) => r.postgresCpuMsPerRequest !== undefined) ? pick('postgresCpuMsPerRequest') : undefined,
    generatorCpuMsPerRequest: pick('generatorCpuMsPerRequest'),
    generatorCpuShare: pick('generatorCpuShare'),
    serverCpuShare: pick('serverCpuShare'),
    latencyP50Ms: pick('latencyP50Ms'),
    latencyP99Ms: pick('latencyP99Ms'),
  };
}

/** The side-by-side table: test | Gatehouse | peer | ratio, then the detail of each side. */
export function comparisonMarkdown(results) {
  const lines = ['| test | Gatehouse | peer | ratio |', '|---|---|---|---|'];
  for (const r of results) {
    const peer = r.peer ? `${r.peer.label}: ${fmt(r.peer.rps)}` : '-';
    const ratio = r.peer ? fmt(r.gatehouse.rps / r.peer.rps, 2) : '-';
    lines.push(`| ${r.title} | ${fmt(r.gatehouse.rps)} | ${peer} | ${ratio} |`);
  }
  lines.push('', '| test | side | req/s of each run | non-2xx | server CPU ms/req (main thread) | PostgreSQL CPU ms/req | generator CPU ms/req (share of a core) | p50 / p99 ms |', '|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    for (const [side, s] of [['Gatehouse', r.gatehouse], [r.peer?.label, r.peer]]) {
      if (!s) continue;
      lines.push(`| ${r.title} | ${side} | ${s.runs.join(', ')} | ${s.non2xx} | ${fmt(s.serverCpuMsPerRequest, 3)} (${fmt(s.mainThreadCpuMsPerRequest, 3)}) | ${s.postgresCpuMsPerRequest === undefined ? '-' : fmt(s.postgresCpuMsPerRequest, 3)} | ${fmt(s.generatorCpuMsPerRequest, 3)} (${fmt(s.generatorCpuShare, 2)}) | ${fmt(s.latencyP50Ms, 1)} / ${fmt(s.latencyP99Ms, 1)} |`);
    }
  }
  return lines.join('\n');
}
