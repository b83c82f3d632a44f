// The server's figures (issue 12), each as a ratio to a reference measured in the same run:
// - requests per second of `GET /api/health`, `GET /api/config` and an authenticated `GET /api/me` (SQLite,
//   and PostgreSQL when a database URL is given; each of autocannon's connections signed in as its own
//   account, as that many people would be, so no two connections share a session), against a bare Fastify
//   JSON route (the same Fastify, in its own `node` process like Dial's), with autocannon on loopback; rounds
//   interleave the reference and each route, and each figure is the median of its rounds' ratios;
// - the production cold start: `node apps/server/dist/main.js` spawned to its first `200` from
//   `/api/health`, median of interleaved runs, beside a bare Fastify server's.
//
// It runs the built server: `npm run build` first.
//
//   node bench/server.mjs [--smoke] [--rounds N] [--seconds S] [--cold-starts N] [--pg postgres://…]
//                         [--only 'api/me']
//
// `--pg` (or BENCH_DATABASE_URL) names a PostgreSQL database the bench may write to (the server migrates it;
// the bench adds ten users and sessions per run). `--smoke` runs one short round of everything (CI).
// Importable: `benchServer(options)` returns the rows {figure, value, reference, ratio, goal, met, unit}.
import { pathToFileURL } from 'node:url';
import { createAccount } from './accounts.mjs';
import {
  formatRows,
  LOAD_CONNECTIONS,
  load,
  median,
  parseOptions,
  requireBuild,
  round2,
  startBare,
  startDial,
} from './lib.mjs';

/**
 * Measures the server figures.
 *
 * @param {object} [options]
 * @param {boolean} [options.smoke] - One short round and one cold start: proves the bench runs (CI).
 * @param {number} [options.rounds] - Interleaved rounds per throughput figure (default 5).
 * @param {number} [options.seconds] - autocannon's duration per run (default 3).
 * @param {number} [options.coldStarts] - Cold starts of each server (default 5).
 * @param {string} [options.databaseUrl] - PostgreSQL for the `/api/me` figure on PostgreSQL; skipped without.
 * @param {string} [options.only] - Measures only the req/s figures whose name holds this text.
 * @param {(line: string) => void} [options.log] - Progress lines (default: stderr).
 * @returns {Promise<Array<{figure: string, value: number, reference: number, ratio: number, goal: string,
 *   met: boolean, unit: string}>>}
 */
export async function benchServer(options = {}) {
  const smoke = options.smoke ?? false;
  const rounds = options.rounds ?? (smoke ? 1 : 5);
  const seconds = options.seconds ?? (smoke ? 1 : 3);
  const coldStarts = options.coldStarts ?? (smoke ? 1 : 5);
  const databaseUrl = options.databaseUrl ?? process.env.BENCH_DATABASE_URL;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  requireBuild();

  const servers = [];
  try {
    const bare = await startBare();
    servers.push(bare);
    const sqlite = await startDial({});
    servers.push(sqlite);
    const sqliteCookies = await signInMany(sqlite);
    /** @type {Array<{figure: string, server: any, path: string, headers?: object, goal: number}>} */
    const targets = [
      { figure: 'GET /api/health req/s', server: sqlite, path: '/api/health', goal: 0.8 },
      { figure: 'GET /api/config req/s', server: sqlite, path: '/api/config', goal: 0.8 },
      {
        figure: 'GET /api/me req/s, SQLite',
        server: sqlite,
        path: '/api/me',
        headers: sqliteCookies,
        goal: 0.5,
      },
    ];
    if (databaseUrl) {
      const postgres = await startDial({ DATABASE_URL: databaseUrl });
      servers.push(postgres);
      targets.push({
        figure: 'GET /api/me req/s, PostgreSQL',
        server: postgres,
        path: '/api/me',
        headers: await signInMany(postgres),
        goal: 0.3,
      });
    } else {
      log('no --pg / BENCH_DATABASE_URL: GET /api/me on PostgreSQL is not measured');
    }

    if (options.only !== undefined) {
      targets.splice(0, targets.length, ...targets.filter((target) => target.figure.includes(options.only)));
    }
    const runs = new Map(targets.map((target) => [target.figure, []]));
    // A short warm-up of each, so the first round does not measure the JIT.
    await load(bare, '/bare', {}, Math.min(seconds, 1));
    for (const target of targets) {
      await load(target.server, target.path, target.headers, Math.min(seconds, 1));
    }
    for (let round = 1; round <= rounds; round++) {
      for (const target of targets) {
        // The reference right before each measure: both see the same moment of a busy machine.
        const reference = await load(bare, '/bare', {}, seconds);
        const value = await load(target.server, target.path, target.headers, seconds);
        runs.get(target.figure).push({ value, reference });
        log(
          `round ${round}/${rounds} ${target.figure}: ${value.perSecond.toFixed(0)} vs ` +
            `${reference.perSecond.toFixed(0)} req/s; ${value.cpuPerRequest.toFixed(0)} vs ` +
            `${reference.cpuPerRequest.toFixed(0)} µs CPU a request`,
        );
      }
    }
    const rows = targets.map((target) => {
      const measured = runs.get(target.figure);
      const ratios = measured.map(({ value, reference }) => value.perSecond / reference.perSecond);
      const ratio = median(ratios);
      return {
        figure: target.figure,
        value: Math.round(median(measured.map(({ value }) => value.perSecond))),
        reference: Math.round(median(measured.map(({ reference }) => reference.perSecond))),
        ratio: round2(ratio),
        goal: `≥ ${target.goal}× bare Fastify`,
        met: ratio >= target.goal,
        unit: 'req/s',
        ratios,
        // The same comparison in the server's CPU time per request (reference / Dial), which a busy machine
        // disturbs less than req/s: a check on the ratio, not the figure.
        cpuRatio: round2(
          median(measured.map(({ value, reference }) => reference.cpuPerRequest / value.cpuPerRequest)),
        ),
      };
    });
    for (const server of servers.splice(0)) await server.stop();

    if (coldStarts > 0) rows.push(await coldStart(coldStarts, log));
    return rows;
  } finally {
    for (const server of servers) await server.stop();
  }
}

/** Production cold start of Dial and of a bare Fastify server, interleaved; medians in ms. */
async function coldStart(runs, log) {
  const dial = [];
  const bare = [];
  for (let run = 1; run <= runs; run++) {
    bare.push(await timeToFirstAnswer(() => startBare()));
    dial.push(await timeToFirstAnswer(() => startDial({})));
    log(`cold start ${run}/${runs}: ${dial.at(-1).toFixed(0)} ms vs ${bare.at(-1).toFixed(0)} ms bare`);
  }
  const value = median(dial);
  return {
    figure: 'production cold start to first answer',
    value: Math.round(value),
    reference: Math.round(median(bare)),
    ratio: round2(value / median(bare)),
    goal: '≤ 600 ms',
    met: value <= 600,
    unit: 'ms',
  };
}

async function timeToFirstAnswer(start) {
  const started = performance.now();
  const server = await start();
  const elapsed = performance.now() - started;
  await server.stop();
  return elapsed;
}

/** One signed-in account for each of autocannon's connections: their `Cookie` headers. */
async function signInMany(server) {
  const headers = [];
  for (let i = 0; i < LOAD_CONNECTIONS; i++) headers.push({ cookie: (await createAccount(server)).cookie });
  return headers;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchServer(
    parseOptions(process.argv.slice(2), {
      '--smoke': ['smoke', 'flag'],
      '--rounds': ['rounds', 'count'],
      '--seconds': ['seconds', 'number'],
      '--cold-starts': ['coldStarts', 'count'],
      '--pg': ['databaseUrl', 'text'],
      '--only': ['only', 'text'],
    }),
  );
  console.log(formatRows(rows));
}
