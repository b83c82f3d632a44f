// Start-up and first-visit figures of issue 12, each beside a reference measured in the same run:
// - `npm start` a second time with nothing changed, to the first answer (`GET /api/health`), against the
//   server's own start (`node apps/server/dist/main.js`, no build check): medians of interleaved runs.
// - The bytes a first visit transfers from the app's origin (files, not /api) in Chromium until the sign-in
//   form's phone input is enabled and the network is idle, against the same files uncompressed (what the
//   server sent before it sent the build's precompressed files).
//
// Run alone: `node bench/start.mjs` (5 runs each), `--runs N`, or `--smoke` (one run each, for CI: it fails
// only when something does not work, never on a goal). Imported: `benchStart(options)` returns the rows.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatRows, freePort, launchChromium, median, parseOptions } from './lib.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const KIB = 1024;
const GOALS = { secondStartMs: 5000, firstVisitBytes: 130 * KIB };

/**
 * @typedef {object} Row
 * @property {string} figure what is measured
 * @property {string} value the figure, with its unit
 * @property {string} reference the reference measured in the same run, with its unit
 * @property {number} ratio value / reference
 * @property {string} goal
 * @property {boolean} met whether the goal holds
 */

/**
 * Measures the figures.
 *
 * @param {{ runs?: number, smoke?: boolean, log?: (line: string) => void }} [options] `runs` of each start
 *   (default 5; `smoke` makes it 1); `log` gets progress lines.
 * @returns {Promise<Row[]>}
 */
export async function benchStart({ runs = 5, smoke = false, log = () => {} } = {}) {
  const count = smoke ? 1 : runs;
  const dataDir = mkdtempSync(join(tmpdir(), 'dial-bench-start-'));
  try {
    const env = await benchEnv(dataDir);
    // The first start: builds what changed since the last build (everything on a fresh clone) and creates
    // the database. Not measured: the figure is the start after it.
    log('first npm start (builds what changed)…');
    const first = await timeToFirstAnswer(['npm', 'start'], env);
    log(`  ${ms(first.ms)}${first.output.includes('building @dial/') ? ', with builds' : ''}`);

    const npmStart = [];
    const serverAlone = [];
    for (let run = 0; run < count; run++) {
      // Interleaved, in alternating order, so load on the machine weighs on both alike.
      const order = run % 2 === 0 ? ['npm', 'server'] : ['server', 'npm'];
      for (const which of order) {
        const command = which === 'npm' ? ['npm', 'start'] : ['node', 'apps/server/dist/main.js'];
        const { ms: took, output } = await timeToFirstAnswer(command, env);
        if (which === 'npm' && output.includes('building @dial/')) {
          throw new Error(`the second npm start built something:\n${output}`);
        }
        (which === 'npm' ? npmStart : serverAlone).push(took);
        log(`  run ${run + 1}/${count}: ${which === 'npm' ? 'npm start' : 'the server alone'} ${ms(took)}`);
      }
    }
    const start = median(npmStart);
    const server = median(serverAlone);

    log('first visit in Chromium…');
    const visit = await measureFirstVisit(env);
    log(
      `  ${visit.files} files, ${kib(visit.transferred)} transferred, ${kib(visit.uncompressed)} uncompressed`,
    );

    return [
      {
        figure: `npm start, second start with nothing changed, to first answer (median of ${count})`,
        value: ms(start),
        reference: `${ms(server)}: the server alone (node apps/server/dist/main.js)`,
        ratio: start / server,
        goal: `≤ ${ms(GOALS.secondStartMs)}`,
        met: start <= GOALS.secondStartMs,
      },
      {
        figure: `bytes a first visit transfers (${visit.files} files: HTML, JS, CSS, icon; bodies, brotli)`,
        value: kib(visit.transferred),
        reference: `${kib(visit.uncompressed)}: the same files uncompressed`,
        ratio: visit.transferred / visit.uncompressed,
        goal: `≤ ${kib(GOALS.firstVisitBytes)}`,
        met: visit.transferred <= GOALS.firstVisitBytes,
      },
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The environment of a development server on free ports with its own data directory, as `npm start` runs. */
async function benchEnv(dataDir) {
  const env = { ...process.env };
  // SQLite, the defaults: a person's first `npm start`.
  const names = [
    'NODE_ENV',
    'DATABASE_URL',
    'REDIS_URL',
    'LOCAL_CHAIN_URL',
    'PUBLIC_URL',
    'HOST',
    'WEB_DIST_DIR',
  ];
  for (const name of names) {
    delete env[name];
  }
  return {
    ...env,
    PORT: String(await freePort()),
    LOCAL_CHAIN_PORT: String(await freePort()),
    LOCAL_BUNDLER_PORT: String(await freePort()),
    DATA_DIR: dataDir,
  };
}

/**
 * Starts `command` (in a process group of its own), times it from the spawn to its first `200` on
 * `/api/health`, then stops the group and waits until it has exited (so its ports are free again).
 */
async function timeToFirstAnswer(command, env) {
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let exitedEarly = false;
  exited.then(() => {
    exitedEarly = true;
  });
  const url = `http://127.0.0.1:${env.PORT}/api/health`;
  try {
    for (;;) {
      if (exitedEarly) throw new Error(`${command.join(' ')} exited before answering:\n${output}`);
      if (performance.now() - started > 300_000)
        throw new Error(`${command.join(' ')} did not answer in 5 min`);
      const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) return { ms: performance.now() - started, output };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await stopGroup(child, exited);
  }
}

async function stopGroup(child, exited) {
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // Gone already.
    }
  };
  signal('SIGTERM');
  const timeout = setTimeout(() => signal('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timeout);
  // npm's child (the server) may outlive npm itself by a moment.
  for (let tries = 0; tries < 100; tries++) {
    try {
      process.kill(-child.pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  signal('SIGKILL');
}

/**
 * Opens the app in Chromium on a started server and sums, over the app's own files (everything of its
 * origin but /api and /dev), the response bodies as transferred (encoded) and as decoded.
 */
async function measureFirstVisit(env) {
  const child = spawn('node', ['apps/server/dist/main.js'], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const origin = `http://127.0.0.1:${env.PORT}`;
  const browser = await launchChromium();
  try {
    for (let tries = 0; ; tries++) {
      const ok = await fetch(`${origin}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      if (tries > 3000) throw new Error('the server did not answer');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const page = await browser.newPage();
    const measured = [];
    page.on('requestfinished', (request) => {
      const url = new URL(request.url());
      if (url.origin !== origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/dev/'))
        return;
      measured.push(
        (async () => {
          const response = await request.response();
          const sizes = await request.sizes();
          const body = await response.body();
          return {
            path: url.pathname,
            status: response.status(),
            encoding: response.headers()['content-encoding'],
            transferred: sizes.responseBodySize,
            uncompressed: body.length,
          };
        })(),
      );
    });
    await page.goto(`${origin}/`);
    const phone = page.getByRole('textbox', { name: 'Phone number' });
    await phone.waitFor({ state: 'visible', timeout: 60_000 });
    for (let tries = 0; !(await phone.isEnabled()); tries++) {
      if (tries > 600) throw new Error('the phone input never became enabled');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await page.waitForLoadState('networkidle');
    const files = await Promise.all(measured);
    const wrong = files.filter((file) => file.status !== 200 || file.encoding !== 'br');
    if (wrong.length > 0) throw new Error(`not sent with brotli: ${JSON.stringify(wrong)}`);
    return {
      files: files.length,
      transferred: files.reduce((total, file) => total + file.transferred, 0),
      uncompressed: files.reduce((total, file) => total + file.uncompressed, 0),
    };
  } finally {
    await browser.close();
    await stopGroup(child, exited);
  }
}

const ms = (value) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`);
const kib = (bytes) => `${(bytes / KIB).toFixed(1)} KiB`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { smoke = false, runs = 5 } = parseOptions(process.argv.slice(2), {
    '--smoke': ['smoke', 'flag'],
    '--runs': ['runs', 'count'],
  });
  const rows = await benchStart({ runs, smoke, log: (line) => console.error(line) });
  console.log(formatRows(rows));
  if (!smoke && rows.some((row) => !row.met)) process.exitCode = 1;
}
