// Child processes of the bench: started (optionally pinned to CPU cores with taskset), waited for
// until they answer HTTP, their CPU time read from /proc, and stopped by their own pid only.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** A free TCP port on loopback. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** user + system CPU seconds of one process so far, all its threads (0 once it is gone). */
export function cpuSecondsOf(pid) {
  return ticksOf(`/proc/${pid}/stat`);
}

/** user + system CPU seconds of a process's main thread (its JavaScript event loop) so far. */
export function mainThreadCpuSecondsOf(pid) {
  return ticksOf(`/proc/${pid}/task/${pid}/stat`);
}

function ticksOf(path) {
  try {
    const stat = readFileSync(path, 'utf8');
    // Fields after the command name (which may hold spaces) start at the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of the PostgreSQL backends serving one deployment of the bench: the connections whose
 * application_name is `applicationName` (the bench sets it in DATABASE_URL), so other work on the
 * shared server is not counted. Backends of a busy pool live through a run.
 */
export function postgresCpuSeconds(databaseUrl, applicationName) {
  const out = execFileSync('psql', [databaseUrl, '-Atc', `SELECT pid FROM pg_stat_activity WHERE application_name = '${applicationName}'`], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean).reduce((sum, pid) => sum + cpuSecondsOf(Number(pid)), 0);
}

/**
 * Starts `node <args>` (pinned to `cores`, e.g. '0' or '0,1', when given), keeping its last output
 * for error messages. Resolves once `readyUrl` answers (any status).
 */
export async function startNode({ name, args, cwd, env, cores, readyUrl, timeoutMs = 60_000 }) {
  const command = cores ? 'taskset' : process.execPath;
  const argv = cores ? ['-c', cores, process.execPath, ...args] : args;
  const child = spawn(command, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk) => { tail = (tail + chunk.toString()).slice(-4000); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  child.on('exit', (code, signal) => { exited = { code, signal }; });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`${name} exited (${JSON.stringify(exited)}) before answering:\n${tail}`);
    try {
      await fetch(readyUrl, { signal: AbortSignal.timeout(2000) });
      break;
    } catch {
      if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`${name} did not answer ${readyUrl} within ${timeoutMs} ms:\n${tail}`); }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    name,
    pid: child.pid,
    output: () => tail,
    async stop() {
      if (exited) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(timer);
    },
  };
}

/**
 * Runs the load generator (load.mjs) in a child process, pinned when `cores` is given; returns its
 * result and the CPU seconds each of `watch` (name -> () => seconds) spent during the measured run.
 */
export function runLoad({ job, cores, watch }) {
  const script = new URL('../load.mjs', import.meta.url).pathname;
  const command = cores ? 'taskset' : process.execPath;
  const argv = cores ? ['-c', cores, process.execPath, script, JSON.stringify(job)] : [script, JSON.stringify(job)];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let buffer = '';
    let stderr = '';
    let before = null;
    let measured = null;
    let result = null;
    child.stderr.on('data', (c) => { stderr = (stderr + c.toString()).slice(-4000); });
    child.stdout.on('data', (chunk) => {
      buffer += chunk.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let event;
        try { event = JSON.parse(line); } catch { continue; }
        if (event.event === 'measure-start') before = Object.fromEntries(Object.entries(watch).map(([k, f]) => [k, f()]));
        if (event.event === 'result') {
          measured = Object.fromEntries(Object.entries(watch).map(([k, f]) => [k, f() - (before?.[k] ?? 0)]));
          result = event;
        }
      }
    });
    child.on('exit', (code) => {
      if (code === 0 && result) resolve({ ...result, cpuSecondsOf: measured });
      else reject(new Error(`load generator failed (${code}):\n${stderr}`));
    });
  });
}
