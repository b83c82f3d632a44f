// The server's memory (issue 12): the resident set (RSS) of the production build (`NODE_ENV=production`)
// - idle: started, answered its first request, then left alone for a settle;
// - under load: the highest RSS while autocannon loads an authenticated `GET /api/me` (10 connections), and
//   while 10 people at once go through the sign-in round (bench/signin.mjs);
// on SQLite, and on PostgreSQL when a database URL is given. Reference, measured the same way in the same
// run: a bare Fastify server (bench/bareFastify.mjs) idle, under autocannon on `GET /bare`, and under the
// sign-in round's two JSON POSTs. Each run starts both servers afresh; each figure is the median of its runs.
// RSS comes from /proc (Linux): the section is skipped elsewhere.
//
//   node bench/memory.mjs [--smoke] [--runs N] [--seconds S] [--pg postgres://…]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { formatRows, median, parseOptions, requireBuild, round2, startBare } from './lib.mjs';
import {
  bareSignInRound,
  phoneNumbers,
  runRounds,
  signInOnce,
  signInRound,
  startSignInServer,
  startSmsStandIn,
} from './signin.mjs';

const autocannon = createRequire(import.meta.url)('autocannon');

/**
 * The goals, in MiB: a small virtual server (1 GiB of memory, the database and a reverse proxy beside Dial)
 * runs it comfortably (docs/BENCHMARKS.md).
 */
export const GOALS_MIB = { idle: 150, load: 250 };
const CONNECTIONS = 10;

/**
 * Measures the memory figures.
 *
 * @param {object} [options]
 * @param {boolean} [options.smoke] - One short run: proves the section works (CI).
 * @param {number} [options.runs] - Runs of each server (default 3).
 * @param {number} [options.seconds] - Seconds of each load (default 3).
 * @param {number} [options.settleSeconds] - How long a started server is left alone before its idle RSS
 *   (default 2).
 * @param {string} [options.databaseUrl] - PostgreSQL the server may migrate and write to; skipped without.
 * @param {(line: string) => void} [options.log] - Progress lines (default: stderr).
 */
export async function benchMemory(options = {}) {
  const smoke = options.smoke ?? false;
  const runs = options.runs ?? (smoke ? 1 : 3);
  const seconds = options.seconds ?? (smoke ? 1 : 3);
  const settleSeconds = options.settleSeconds ?? (smoke ? 0.5 : 2);
  const databaseUrl = options.databaseUrl ?? process.env.BENCH_DATABASE_URL;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  requireBuild();
  if (!existsSync('/proc/self/status')) {
    log('no /proc: the memory figures are measured on Linux only');
    return [];
  }
  const databases = [{ name: 'SQLite', env: {} }];
  if (databaseUrl) databases.push({ name: 'PostgreSQL', env: { DATABASE_URL: databaseUrl } });
  else log('no --pg / BENCH_DATABASE_URL: memory on PostgreSQL is not measured');

  const sms = await startSmsStandIn();
  const phones = phoneNumbers();
  const rows = [];
  try {
    for (const database of databases) {
      const measured = [];
      for (let run = 1; run <= runs; run++) {
        const bare = await measureServer(
          () => startBare(),
          settleSeconds,
          seconds,
          async (server) => ({
            api: () => autocannonRun(server.url('/bare'), {}, seconds),
            round: bareSignInRound(server, phones),
          }),
        );
        const dial = await measureServer(
          () => startSignInServer(sms, database.env),
          settleSeconds,
          seconds,
          async (server) => {
            const cookie = await signInOnce(server, sms, phones(), new Agent({ keepAlive: true }));
            return {
              api: () => autocannonRun(server.url('/api/me'), { cookie }, seconds),
              round: signInRound(server, sms, phones),
            };
          },
        );
        measured.push({ bare, dial });
        log(
          `run ${run}/${runs} memory, ${database.name}: idle ${mib(dial.idle)} vs ${mib(bare.idle)} bare; ` +
            `GET /api/me ${mib(dial.api)} vs ${mib(bare.api)}; sign-in ${mib(dial.round)} vs ${mib(bare.round)}`,
        );
      }
      const row = (key, figure, goal, reference) => {
        const value = median(measured.map((run) => run.dial[key]));
        return {
          figure: `${figure}, ${database.name}`,
          value: round1(value),
          reference: round1(median(measured.map((run) => run.bare[key]))),
          ratio: round2(median(measured.map((run) => run.dial[key] / run.bare[key]))),
          goal: `≤ ${goal} MiB`,
          met: value <= goal,
          unit: 'MiB',
          note: reference,
        };
      };
      rows.push(
        row(
          'idle',
          `RSS idle (started, ${settleSeconds} s settle)`,
          GOALS_MIB.idle,
          'bare Fastify, idle the same way',
        ),
        row(
          'api',
          'RSS peak under load (GET /api/me)',
          GOALS_MIB.load,
          `${CONNECTIONS} connections; bare Fastify under GET /bare`,
        ),
        row(
          'round',
          'RSS peak under load (sign-in rounds)',
          GOALS_MIB.load,
          `${CONNECTIONS} at once; bare Fastify under the same POSTs`,
        ),
      );
    }
    return rows;
  } finally {
    await sms.close();
  }
}

/**
 * Starts a server, waits `settleSeconds`, reads its RSS (idle), then its peak RSS under `api()` and under
 * the sign-in `round` (in MiB); stops it.
 */
async function measureServer(start, settleSeconds, seconds, prepare) {
  const server = await start();
  try {
    await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
    const idle = rssMiB(server.pid).current;
    const { api, round } = await prepare(server);
    const apiPeak = await peakDuring(server.pid, api);
    const roundPeak = await peakDuring(server.pid, () => runRounds(server, round, CONNECTIONS, seconds));
    return { idle, api: apiPeak, round: roundPeak };
  } finally {
    await server.stop();
  }
}

/**
 * The highest RSS of `pid` while `work()` runs, in MiB: the kernel's high-water mark reset before it (where
 * the kernel lets us), and samples every 10 ms besides.
 */
async function peakDuring(pid, work) {
  let reset = true;
  try {
    // 5 resets the peak RSS (VmHWM) to the current RSS (Linux 4.0+).
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    reset = false;
  }
  let peak = rssMiB(pid).current;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMiB(pid).current);
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const after = rssMiB(pid);
  return Math.max(peak, after.current, reset ? after.peak : 0);
}

/** VmRSS (current) and VmHWM (peak since start or since the last reset) of a process, in MiB. */
function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    if (match === null) throw new Error(`/proc/${pid}/status has no ${name}`);
    return Number(match[1]) / 1024;
  };
  return { current: field('VmRSS'), peak: field('VmHWM') };
}

/** autocannon on `url` for `seconds`; any non-2xx answer, error or timeout fails the bench. */
async function autocannonRun(url, headers, seconds) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
}

const round1 = (value) => Math.round(value * 10) / 10;
const mib = (value) => `${value.toFixed(1)} MiB`;

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(
    formatRows(
      await benchMemory(
        parseOptions(process.argv.slice(2), {
          '--smoke': ['smoke', 'flag'],
          '--runs': ['runs', 'count'],
          '--seconds': ['seconds', 'number'],
          '--pg': ['databaseUrl', 'text'],
        }),
      ),
    ),
  );
}
