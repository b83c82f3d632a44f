// What the bench's sections share: medians, the rows' table, free ports, the built server and the bare Fastify
// reference started in their own processes and waited for until they answer, a process's CPU time, and the
// machine line. Every section returns rows of one shape:
//
//   { figure, value, reference, ratio, goal, met, unit?, cpuRatio?, ratios?, note? }
//
// `ratios` are the ratios of the single runs whose median `ratio` is: the table shows their range, so a
// reader can tell a figure that misses its goal from one that moves across it from run to run.
// `value` and `reference` are numbers in `unit`, or text that already says its unit; `met` is whether the
// goal holds (`undefined` for a figure reported without a goal).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '@dial/e2e/chromium';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const SERVER_MAIN = join(ROOT, 'apps/server/dist/main.js');
export const BARE_SERVER = fileURLToPath(new URL('./bareFastify.mjs', import.meta.url));

const autocannon = createRequire(import.meta.url)('autocannon');

/**
 * Node's options for every server the bench starts, Dial's and the references' alike: V8's memory reducer
 * off, as the README's production command has it. With it on, a process left idle for 8 s after work runs a
 * garbage collection that leaves it, for good, 20–30% slower a request (a bare Fastify route as much as Dial);
 * the bench's servers idle between their rounds, so which of them it struck decided the ratios
 * (docs/BENCHMARKS.md).
 */
export const SERVER_NODE_OPTIONS = ['--no-memory-reducer'];

/** How long a server may take to answer its first request before the bench gives up. */
const START_TIMEOUT_MS = 60_000;

/** The median of `values` (NaN for none). */
export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function round2(value) {
  return Math.round(value * 100) / 100;
}

/** A TCP port free on loopback right now. */
export async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Throws when the server has not been built. */
export function requireBuild() {
  if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run npm run build first`);
}

/** A bare Fastify server (bench/bareFastify.mjs) in its own process. */
export function startBare() {
  return startProcess(BARE_SERVER, {}, '/bare');
}

/**
 * Dial in production, from its build, on a fresh SQLite file (or `DATABASE_URL`), with the default log level
 * (its log lines go to a file, as they would to a collector). `env` adds or overrides variables.
 */
export function startDial(env = {}) {
  return startProcess(
    SERVER_MAIN,
    {
      NODE_ENV: 'production',
      SHARE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PUBLIC_URL: 'https://dial.bench.invalid',
      ...env,
    },
    '/api/health',
  );
}

/**
 * Spawns `node file` ({@link SERVER_NODE_OPTIONS}) on a free loopback port with a data directory of its own and waits for its first `200`
 * on `readyPath`. Returns `url(path)`, `stop()` (SIGTERM, waits for the exit, removes the directory), `pid`,
 * `port`, `dataDir` and `databaseUrl` (`env.DATABASE_URL`).
 */
export async function startProcess(file, env, readyPath) {
  const dataDir = mkdtempSync(join(tmpdir(), 'dial-bench-'));
  const logPath = join(dataDir, 'server.log');
  const logFd = openSync(logPath, 'w');
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, ...env },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const exited = once(child, 'exit');
  const url = (path) => `http://127.0.0.1:${port}${path}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      const output = readFileSync(logPath, 'utf8');
      await stop();
      throw new Error(`${file} exited (${child.exitCode}) before answering:\n${output}`);
    }
    if ((await statusOf(url(readyPath))) === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${file} did not answer ${readyPath} within ${START_TIMEOUT_MS} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return { url, dataDir, stop, databaseUrl: env.DATABASE_URL, pid: child.pid, port };
}

/** The status of a `GET url` with `headers` (0 when it could not be asked). */
export function statusOf(url, headers = {}) {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, headers }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** User + system CPU time of a process so far, in µs (Linux); NaN elsewhere. */
export function cpuMicroseconds(pid) {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, the 14th and 15th fields of the line, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

/** How many connections autocannon opens to a server ({@link load}). */
export const LOAD_CONNECTIONS = 10;

/**
 * Loads `path` of `server` with autocannon ({@link LOAD_CONNECTIONS} connections, loopback) for `seconds`:
 * the requests per second, the 99th percentile of the answers' latency in ms, and the server process's CPU
 * time per request in µs (from /proc, where there is one; else NaN). `headers` are every request's, or a
 * list: each connection sends one of them. Any non-2xx answer, error or timeout fails the bench.
 */
export async function load(server, path, headers, seconds) {
  const cpuBefore = cpuMicroseconds(server.pid);
  let connection = 0;
  const perConnection = Array.isArray(headers)
    ? { setupClient: (client) => client.setHeaders(headers[connection++ % headers.length]) }
    : { headers };
  const result = await autocannon({
    url: server.url(path),
    connections: LOAD_CONNECTIONS,
    duration: seconds,
    ...perConnection,
  });
  const cpu = cpuMicroseconds(server.pid) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${path}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return {
    perSecond: result.requests.total / seconds,
    p99Ms: result.latency.p99,
    cpuPerRequest: cpu / result.requests.total,
  };
}

/** A row's value or reference as the table shows it: a number with its unit, or the text as it is. */
export function formatAmount(amount, unit) {
  if (typeof amount !== 'number') return String(amount);
  if (!Number.isFinite(amount)) return '—';
  const text = Number.isInteger(amount) ? amount.toLocaleString('en-US') : String(amount);
  return unit === undefined || unit === '' ? text : `${text} ${unit}`;
}

/** `yes`, `NO`, or `—` for a figure without a goal. */
export function formatMet(met) {
  if (met === undefined || met === null) return '—';
  return met ? 'yes' : 'NO';
}

/**
 * The rows as one Markdown table: figure, value, reference, ratio, goal, met, and a last column for what a
 * section adds (`cpuRatio`: the same comparison in the server's CPU time per request; the range of the single
 * runs' `ratios`; `note`).
 */
export function formatRows(rows) {
  const lines = [
    '| figure | value | reference | ratio | goal | met | note |',
    '|---|---:|---|---:|---|---|---|',
  ];
  for (const row of rows) {
    const notes = [];
    if (row.cpuRatio !== undefined) notes.push(`CPU a request: ${row.cpuRatio.toFixed(2)}×`);
    if (row.ratios !== undefined && row.ratios.length > 1) {
      notes.push(`runs ${Math.min(...row.ratios).toFixed(2)}–${Math.max(...row.ratios).toFixed(2)}×`);
    }
    if (row.note !== undefined) notes.push(row.note);
    const ratio =
      typeof row.ratio === 'number' && Number.isFinite(row.ratio) ? `${row.ratio.toFixed(2)}×` : '—';
    const cells = [
      row.figure,
      formatAmount(row.value, row.unit),
      formatAmount(row.reference, row.unit),
      ratio,
      row.goal ?? '—',
      formatMet(row.met),
      notes.join('; '),
    ];
    lines.push(`| ${cells.map((cell) => String(cell).replaceAll('|', '\\|')).join(' | ')} |`);
  }
  return lines.join('\n');
}

/**
 * The exit code of a bench run: 1 when a section broke; with `strict` (and not `smoke`), 1 when a goal does
 * not hold; else 0. A smoke pass never fails on a goal.
 *
 * @param {{ rows: Array<{met?: boolean}>, failures: unknown[], strict?: boolean, smoke?: boolean }} run
 */
export function exitCode({ rows, failures, strict = false, smoke = false }) {
  if (failures.length > 0) return 1;
  if (strict && !smoke && rows.some((row) => row.met === false)) return 1;
  return 0;
}

/** The machine the bench runs on, and its load average now. */
export function machine() {
  const list = cpus();
  return {
    cpu: list[0]?.model?.trim() ?? 'unknown CPU',
    cores: typeof availableParallelism === 'function' ? availableParallelism() : list.length,
    memoryGiB: round2(totalmem() / 1024 ** 3),
    load: loadavg().map(round2),
    node: process.version,
    chromium: chromiumVersion(),
  };
}

/** Chromium's version (the browser the bench drives: `CHROMIUM_PATH`, else /usr/bin/chromium), or `absent`. */
export function chromiumVersion() {
  try {
    // Its launcher script may say things on stderr that are not the version.
    return execFileSync(CHROMIUM_EXECUTABLE, ['--version'], {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'absent';
  }
}

/** One line saying what the figures ran on: CPU, cores, memory, load at start and end, Node, Chromium. */
export function formatMachine(atStart, atEnd) {
  const load = (values) => values.map((value) => value.toFixed(2)).join(' ');
  return (
    `Machine: ${atStart.cpu}, ${atStart.cores} cores, ${atStart.memoryGiB} GiB; load average ` +
    `${load(atStart.load)} at start, ${load(atEnd.load)} at end; Node ${atStart.node}; ${atStart.chromium}`
  );
}

/**
 * Reads a bench module's own command line (`node bench/server.mjs --rounds 3 --pg …`). `spec` maps each
 * option to its key in the options and its kind: `flag` (true when given), `count` (a whole number ≥ 1),
 * `number` (a number > 0) or `text`.
 *
 * @param {string[]} argv - The arguments after the script's name.
 * @param {Record<string, [string, 'flag' | 'count' | 'number' | 'text']>} spec - e.g.
 *   `{ '--smoke': ['smoke', 'flag'], '--runs': ['runs', 'count'] }`
 * @returns {Record<string, boolean | number | string>}
 * @throws {Error} on an unknown option, a missing value, or a value of the wrong kind, naming the option.
 */
export function parseOptions(argv, spec) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const known = spec[arg];
    if (known === undefined)
      throw new Error(`unknown option ${arg} (known: ${Object.keys(spec).join(', ')})`);
    const [key, kind] = known;
    if (kind === 'flag') {
      options[key] = true;
      continue;
    }
    const text = argv[++i];
    if (text === undefined) throw new Error(`${arg} needs a value`);
    if (kind === 'text') {
      options[key] = text;
      continue;
    }
    const value = Number(text);
    if (kind === 'count' && !(Number.isInteger(value) && value >= 1)) {
      throw new Error(`${arg} takes a whole number ≥ 1, not ${text}`);
    }
    if (kind === 'number' && !(value > 0)) throw new Error(`${arg} takes a number > 0, not ${text}`);
    options[key] = value;
  }
  return options;
}

/** Launches Debian's Chromium (`/usr/bin/chromium`, or `CHROMIUM_PATH`) with the e2e tests' flags (e2e/chromium.mjs). */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: [...CHROMIUM_ARGS] });
}
