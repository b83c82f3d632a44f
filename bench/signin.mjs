// The sign-in round per second (issue 12): a code asked for (`POST /api/auth/otp/start`, SMS) and checked
// (`POST /api/auth/otp/verify`, which creates the account and its session), by `connections` people at once
// for `seconds`, against the production build (`NODE_ENV=production`) on SQLite, and on PostgreSQL when a
// database URL is given. Each round is a new phone number and a new browser (its own `dial_device` cookie):
// a crowd signing up. All requests come from one address (127.0.0.1), so the per-IP code limits are raised
// by their configuration (`OTP_STARTS_PER_IP`, `OTP_VERIFIES_PER_IP`); every other limit stays as it is, and
// no round comes near it (one code per number and browser).
//
// The codes travel as in production: the server sends each SMS through Twilio's Messages API, pointed by
// `TWILIO_API_URL` at a stand-in this bench runs on loopback, which answers like Twilio and hands the bench
// the code in the text, as the phone would get it (never read from the database).
//
// Reference, in the same run: the same client doing the same two JSON POSTs a round against a bare Fastify
// route (bench/bareFastify.mjs), interleaved with Dial's runs; each figure is the median of its runs.
//
//   node bench/signin.mjs [--smoke] [--runs N] [--seconds S] [--connections C] [--pg postgres://…]
//
// Importable: `benchSignIn(options)` returns the rows; `startSmsStandIn()` and `signInOnce()` give another
// section a signed-in session the same way.
import { randomBytes, randomInt } from 'node:crypto';
import { once } from 'node:events';
import { Agent, createServer, request } from 'node:http';
import { pathToFileURL } from 'node:url';
import {
  cpuMicroseconds,
  formatRows,
  median,
  parseOptions,
  requireBuild,
  round2,
  startBare,
  startDial,
} from './lib.mjs';

/** What the server's `PUBLIC_URL` is in the bench (lib.mjs `startDial`): the `Origin` its pages send. */
const ORIGIN = 'https://dial.bench.invalid';
/** A phone's browser, as the sessions list would describe it. */
const USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
/**
 * The goal: a 2-core machine signs up at least this many people a second with no error. An SMS provider
 * sends far fewer a second from one sender (Twilio: 1 a second from a long code, 3 from a toll-free number,
 * 100 from a short code), so at this rate Dial is never what holds sign-in back (docs/BENCHMARKS.md).
 */
export const GOAL_ROUNDS_PER_SECOND = 100;
/** The per-IP code limits while the bench runs (their most; the defaults are 20 an hour and 30 in 10 min). */
const RAISED_LIMITS = { OTP_STARTS_PER_IP: '1000000', OTP_VERIFIES_PER_IP: '1000000' };

/**
 * Measures the sign-in rounds per second.
 *
 * @param {object} [options]
 * @param {boolean} [options.smoke] - One short run of each: proves the round works (CI).
 * @param {number} [options.runs] - Interleaved runs of each (default 5).
 * @param {number} [options.seconds] - Seconds a run (default 3).
 * @param {number} [options.connections] - People signing in at once (default 10).
 * @param {string} [options.databaseUrl] - PostgreSQL the server may migrate and write to; skipped without.
 * @param {(line: string) => void} [options.log] - Progress lines (default: stderr).
 */
export async function benchSignIn(options = {}) {
  const smoke = options.smoke ?? false;
  const runs = options.runs ?? (smoke ? 1 : 5);
  const seconds = options.seconds ?? (smoke ? 1 : 3);
  const connections = options.connections ?? 10;
  const databaseUrl = options.databaseUrl ?? process.env.BENCH_DATABASE_URL;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  requireBuild();

  const sms = await startSmsStandIn();
  const servers = [];
  try {
    const bare = await startBare();
    servers.push(bare);
    const targets = [{ figure: 'sign-in rounds/s, SQLite', server: await startSignInServer(sms, {}) }];
    servers.push(targets[0].server);
    if (databaseUrl) {
      const server = await startSignInServer(sms, { DATABASE_URL: databaseUrl });
      servers.push(server);
      targets.push({ figure: 'sign-in rounds/s, PostgreSQL', server });
    } else {
      log('no --pg / BENCH_DATABASE_URL: the sign-in round on PostgreSQL is not measured');
    }
    const phones = phoneNumbers();
    const bareRound = bareSignInRound(bare, phones);
    const rounds = new Map(targets.map((target) => [target, signInRound(target.server, sms, phones)]));

    // A short warm-up of each, so the first run does not measure the JIT.
    await runRounds(bare, bareRound, connections, Math.min(seconds, 1));
    for (const target of targets) {
      await runRounds(target.server, rounds.get(target), connections, Math.min(seconds, 1));
    }
    const measured = new Map(targets.map((target) => [target, []]));
    for (let run = 1; run <= runs; run++) {
      for (const target of targets) {
        const reference = await runRounds(bare, bareRound, connections, seconds);
        const value = await runRounds(target.server, rounds.get(target), connections, seconds);
        measured.get(target).push({ value, reference });
        log(
          `run ${run}/${runs} ${target.figure}: ${value.perSecond.toFixed(0)} vs ` +
            `${reference.perSecond.toFixed(0)} rounds/s bare; ${(value.cpuPerRound / 1000).toFixed(2)} ms ` +
            `CPU a round vs ${(reference.cpuPerRound / 1000).toFixed(2)} ms`,
        );
      }
    }
    return targets.map((target) => {
      const list = measured.get(target);
      const value = median(list.map((run) => run.value.perSecond));
      return {
        figure: target.figure,
        value: Math.round(value),
        reference: Math.round(median(list.map((run) => run.reference.perSecond))),
        ratio: round2(median(list.map((run) => run.value.perSecond / run.reference.perSecond))),
        goal: `≥ ${GOAL_ROUNDS_PER_SECOND} rounds/s, no errors`,
        met: value >= GOAL_ROUNDS_PER_SECOND,
        unit: 'rounds/s',
        note:
          `${connections} at once; server CPU a round ${msOf(list.map((run) => run.value.cpuPerRound))} vs ` +
          `${msOf(list.map((run) => run.reference.cpuPerRound))} bare`,
      };
    });
  } finally {
    for (const server of servers) await server.stop();
    await sms.close();
  }
}

/** The median of CPU times in µs, in ms. */
function msOf(micros) {
  return `${(median(micros) / 1000).toFixed(2)} ms`;
}

/** Dial in production sending SMS through the stand-in, with the per-IP code limits raised. */
export function startSignInServer(sms, env) {
  return startDial({ ...sms.env, ...RAISED_LIMITS, ...env });
}

/**
 * Runs `round` in `connections` loops at once until `seconds` have passed: rounds a second, and the server
 * process's CPU time a round in µs (NaN where there is no /proc).
 */
export async function runRounds(server, round, connections, seconds) {
  const cpuBefore = cpuMicroseconds(server.pid);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        await round();
        count++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuMicroseconds(server.pid) - cpuBefore;
  return { perSecond: count / elapsed, cpuPerRound: cpu / count };
}

/** Fresh valid UK mobile numbers (+44 771…), from a random start so that runs on one database differ. */
export function phoneNumbers() {
  let next = randomInt(0, 10_000_000);
  return () => {
    next = (next + 1) % 10_000_000;
    return `+44771${String(next).padStart(7, '0')}`;
  };
}

/**
 * One person's sign-in on `server`: a code asked for a new number from a new browser, read from the SMS
 * stand-in, and checked. Any answer but 200, or a check that starts no session, fails the bench.
 */
export function signInRound(server, sms, phones) {
  const agent = new Agent({ keepAlive: true });
  return async () => {
    await signInOnce(server, sms, phones(), agent);
  };
}

/**
 * Signs in (or up) `to` on `server` through the SMS stand-in; returns the session's `Cookie` header value.
 */
export async function signInOnce(server, sms, to, agent = undefined) {
  const code = sms.codeFor(to);
  try {
    const headers = { origin: ORIGIN, 'user-agent': USER_AGENT };
    const start = await postJson(server.url('/api/auth/otp/start'), { channel: 'sms', to }, headers, agent);
    if (start.status !== 200) throw new Error(`otp/start answered ${start.status}: ${start.body}`);
    const device = cookieOf(start.headers, 'dial_device');
    if (device === undefined) throw new Error('otp/start set no dial_device cookie');
    const verify = await postJson(
      server.url('/api/auth/otp/verify'),
      { channel: 'sms', to, code: await code.promise },
      { ...headers, cookie: device },
      agent,
    );
    if (verify.status !== 200) throw new Error(`otp/verify answered ${verify.status}: ${verify.body}`);
    const session = cookieOf(verify.headers, 'dial_session');
    if (session === undefined) throw new Error('otp/verify started no session (no dial_session cookie)');
    return session;
  } finally {
    code.cancel();
  }
}

/** The reference round: the same two JSON POSTs, answered by a bare Fastify route. */
export function bareSignInRound(bare, phones) {
  const agent = new Agent({ keepAlive: true });
  return async () => {
    const to = phones();
    const headers = { origin: ORIGIN, 'user-agent': USER_AGENT };
    for (const body of [
      { channel: 'sms', to },
      { channel: 'sms', to, code: '123456' },
    ]) {
      const answer = await postJson(bare.url('/bare'), body, headers, agent);
      if (answer.status !== 200) throw new Error(`POST /bare answered ${answer.status}`);
    }
  };
}

/** `name=value` of the `Set-Cookie` named `name`, if any. */
function cookieOf(headers, name) {
  for (const line of headers['set-cookie'] ?? []) {
    const pair = line.split(';', 1)[0];
    if (pair.startsWith(`${name}=`)) return pair;
  }
  return undefined;
}

function postJson(url, body, headers, agent) {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * A stand-in for Twilio's Messages API on loopback: it answers each message `201` as Twilio does and hands
 * its code to whoever waits for that number (`codeFor(to)`). `env` points a Dial server at it.
 */
export async function startSmsStandIn() {
  /** @type {Map<string, (code: string) => void>} */
  const waiting = new Map();
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const form = new URLSearchParams(text);
      const to = form.get('To') ?? '';
      const code = /\b(\d{6})\b/.exec(form.get('Body') ?? '')?.[1];
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ sid: `SM${randomBytes(16).toString('hex')}`, to, status: 'queued' }));
      if (code !== undefined) waiting.get(to)?.(code);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  return {
    env: {
      TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
      TWILIO_AUTH_TOKEN: 'bench',
      TWILIO_FROM: '+15005550006',
      TWILIO_API_URL: `http://127.0.0.1:${port}`,
    },
    /** The next code sent to `to` (waits up to 30 s); `cancel()` stops waiting. */
    codeFor(to) {
      let timer;
      const promise = new Promise((resolve, reject) => {
        timer = setTimeout(() => {
          waiting.delete(to);
          reject(new Error(`no SMS reached ${to} within 30 s`));
        }, 30_000);
        waiting.set(to, (code) => {
          clearTimeout(timer);
          waiting.delete(to);
          resolve(code);
        });
      });
      // A failed start leaves the promise unawaited: its rejection is the start's error, reported there.
      promise.catch(() => {});
      return {
        promise,
        cancel() {
          clearTimeout(timer);
          waiting.delete(to);
        },
      };
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(
    formatRows(
      await benchSignIn(
        parseOptions(process.argv.slice(2), {
          '--smoke': ['smoke', 'flag'],
          '--runs': ['runs', 'count'],
          '--seconds': ['seconds', 'number'],
          '--connections': ['connections', 'count'],
          '--pg': ['databaseUrl', 'text'],
        }),
      ),
    ),
  );
}
