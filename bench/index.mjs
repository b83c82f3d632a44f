// `npm run bench`: every section of the bench, one after the other, in one Markdown table (figure, value,
// the reference measured in the same run, ratio, goal, met) and a line saying what machine it ran on (CPU,
// cores, memory, load average at start and end, Node, Chromium). It runs the build: `npm run build` first.
//
//   npm run bench [-- --smoke] [--only server,signin] [--pg postgres://…] [--json rows.json] [--strict]
//
// --smoke    one short pass of every section (CI): fails only when something does not work, never on a goal
// --only     the named sections only (comma-separated; see SECTIONS)
// --pg       a PostgreSQL database the bench may migrate and write to (else BENCH_DATABASE_URL): the
//            figures that involve a database are measured on it too
// --json     also writes the rows, the machine and any failure to this file
// --strict   exits non-zero when a goal does not hold (never with --smoke)
//
// The exit code is non-zero when a section broke (it threw: a server that did not start, an answer that was
// not 2xx, …); the other sections still run and the table shows what they measured.
//
// Each section runs in a Node process of its own (bench/section.mjs), started with the servers' options
// (SERVER_NODE_OPTIONS): the load a section generates (autocannon, the sign-in rounds) comes from a fresh
// process, not from one that still holds what the sections before it left (Chromium's driver, their heap).
// Run in one process, the server section's client was slower after the browser section (bare Fastify
// 76,000 instead of 95,000 req/s), and a slower client moves the servers' ratios (docs/BENCHMARKS.md).
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { exitCode, formatMachine, formatRows, machine, SERVER_NODE_OPTIONS } from './lib.mjs';

const SECTION_RUNNER = fileURLToPath(new URL('./section.mjs', import.meta.url));

/**
 * The sections, in the order they run: each a module of bench/ exporting `async (options) => rows`, with
 * options `{ smoke, databaseUrl, log }`, run in a process of its own ({@link runInOwnProcess}).
 */
export const SECTIONS = [
  section('start', './start.mjs', 'benchStart'),
  section('browser', './browser.mjs', 'benchBrowser'),
  section('server', './server.mjs', 'benchServer'),
  section('activity', './activity.mjs', 'benchActivity'),
  section('signin', './signin.mjs', 'benchSignIn'),
  section('memory', './memory.mjs', 'benchMemory'),
  section('wallet', './wallet.mjs', 'benchWallet'),
  section('fees', './fees.mjs', 'benchFees'),
];

function section(name, file, exported) {
  return { name, run: (options) => runInOwnProcess(file, exported, options) };
}

/**
 * Runs `exported` of the section module `file` (relative to bench/) in a new Node process (bench/section.mjs)
 * with `options` but `log`, which gets the lines the section logs. Its rows, or the section's error thrown
 * here.
 */
export function runInOwnProcess(file, exported, { log, ...options }) {
  return new Promise((resolve, reject) => {
    const child = fork(SECTION_RUNNER, [file, exported], {
      execArgv: SERVER_NODE_OPTIONS,
      // Structured clone, not JSON: a figure that could not be measured is NaN, and stays NaN.
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let answer;
    child.on('message', (message) => {
      if (message.log !== undefined) log?.(message.log);
      else answer = message;
    });
    child.once('error', reject);
    child.send(options);
    // `close`, not `exit`: every message has come in by then.
    child.once('close', (code, signal) => {
      if (answer?.rows !== undefined) resolve(answer.rows);
      else if (answer?.error !== undefined) reject(new Error(answer.error));
      else reject(new Error(`the ${file} process exited (${signal ?? code}) without its rows`));
    });
  });
}

/**
 * Reads the command line.
 *
 * @returns {{ smoke: boolean, strict: boolean, only?: string[], databaseUrl?: string, json?: string }}
 */
export function parseArgs(argv, env = process.env) {
  const options = { smoke: false, strict: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--')) throw new Error(`${arg} needs a value`);
      return value;
    };
    if (arg === '--smoke') options.smoke = true;
    else if (arg === '--strict') options.strict = true;
    else if (arg === '--only') options.only = next().split(',').filter(Boolean);
    else if (arg === '--pg') options.databaseUrl = next();
    else if (arg === '--json') options.json = next();
    else
      throw new Error(
        `unknown option ${arg} (--smoke, --only <sections>, --pg <url>, --json <file>, --strict)`,
      );
  }
  options.databaseUrl ??= env.BENCH_DATABASE_URL?.trim() || undefined;
  const names = SECTIONS.map((entry) => entry.name);
  const unknown = (options.only ?? []).filter((name) => !names.includes(name));
  if (unknown.length > 0)
    throw new Error(`no section ${unknown.join(', ')}: the sections are ${names.join(', ')}`);
  return options;
}

/**
 * Runs the chosen sections; a section that throws is reported and the others still run.
 *
 * @returns {Promise<{ rows: object[], failures: Array<{section: string, error: string}>,
 *   machine: {start: object, end: object} }>}
 */
export async function runBench(options, log = (line) => process.stderr.write(`${line}\n`)) {
  const atStart = machine();
  const rows = [];
  const failures = [];
  const chosen = SECTIONS.filter((entry) => options.only === undefined || options.only.includes(entry.name));
  for (const entry of chosen) {
    const started = performance.now();
    log(`== ${entry.name}${options.smoke ? ' (smoke)' : ''}`);
    try {
      const sectionRows = await entry.run({
        smoke: options.smoke,
        databaseUrl: options.databaseUrl,
        log: (line) => log(`  ${line}`),
      });
      rows.push(...sectionRows.map((row) => ({ section: entry.name, ...row })));
    } catch (error) {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push({ section: entry.name, error: text });
      log(`  ${entry.name} failed: ${text}`);
    }
    log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
  return { rows, failures, machine: { start: atStart, end: machine() } };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = parseArgs(process.argv.slice(2));
  const result = await runBench(options);
  console.log(formatRows(result.rows));
  console.log();
  console.log(formatMachine(result.machine.start, result.machine.end));
  if (options.smoke) console.log('Smoke pass: one short run of each section; the figures are not measures.');
  for (const failure of result.failures)
    console.log(`\nSection ${failure.section} FAILED:\n${failure.error}`);
  if (options.json !== undefined) {
    const { databaseUrl: _, ...shown } = options;
    writeFileSync(options.json, `${JSON.stringify({ options: shown, ...result }, null, 2)}\n`);
  }
  process.exitCode = exitCode({ ...result, strict: options.strict, smoke: options.smoke });
}
