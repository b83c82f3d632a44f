// The history's first page (issue 12): `GET /api/activity?limit=10`, the page the wallet's activity list opens with,
// for a user with a long history, 5,000 Dial transfers, against a user with 10, on the same server and the
// same database (the production build; SQLite, and PostgreSQL when a database URL is given). Both users are
// signed in as sign-in would leave them; half of each history sent to and half received from four other users
// with phone numbers (so the page looks their numbers up), over the five networks and 100 days. Each is
// loaded with autocannon (10 connections, loopback), interleaved round by round: the figure is the requests a
// second the server answers, and the ratio how many times longer the long history's answer takes (the short
// one's req/s over the long one's), the median of the rounds' ratios.
//
//   node bench/activity.mjs [--smoke] [--rounds N] [--seconds S] [--transfers N] [--pg postgres://…]
//
// `--pg` (or BENCH_DATABASE_URL) names a PostgreSQL database the bench may write to: the section deletes the
// transfers it wrote when it is done, and leaves its users and sessions, as the other sections do.
import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { pathToFileURL } from 'node:url';
import { createAccount, writeRows } from './accounts.mjs';
import { formatRows, load, median, parseOptions, requireBuild, round2, startDial } from './lib.mjs';

/** The goal: the long history's first page takes at most twice the short one's. */
export const GOAL_RATIO = 2;
/** The histories' lengths, in Dial transfers. */
const LONG_HISTORY = 5_000;
const SHORT_HISTORY = 10;
/** The networks a history spreads over (Polygon, Arbitrum One, Base, Base Sepolia, Zora). */
const CHAIN_IDS = [137, 42161, 8453, 84532, 7777777];
const DAY_MS = 86_400_000;
/**
 * The first page as the wallet's activity list asks for it: `PAGE_SIZE` of apps/web/src/activity/pageSize.ts
 * (bench/activity.test.mjs checks that they agree).
 */
export const WALLET_PAGE_SIZE = 10;
const PATH = `/api/activity?limit=${WALLET_PAGE_SIZE}`;

/**
 * Measures the history's first page.
 *
 * @param {object} [options]
 * @param {boolean} [options.smoke] - One short round: proves the section works (CI).
 * @param {number} [options.rounds] - Interleaved rounds (default 5).
 * @param {number} [options.seconds] - autocannon's duration per run (default 3).
 * @param {number} [options.transfers] - The long history's length (default 5,000).
 * @param {string} [options.databaseUrl] - PostgreSQL the server may migrate and write to; skipped without.
 * @param {(line: string) => void} [options.log] - Progress lines (default: stderr).
 */
export async function benchActivity(options = {}) {
  const smoke = options.smoke ?? false;
  const rounds = options.rounds ?? (smoke ? 1 : 5);
  const seconds = options.seconds ?? (smoke ? 1 : 3);
  const longHistory = options.transfers ?? LONG_HISTORY;
  const databaseUrl = options.databaseUrl ?? process.env.BENCH_DATABASE_URL;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  requireBuild();
  const databases = [{ name: 'SQLite', env: {} }];
  if (databaseUrl) databases.push({ name: 'PostgreSQL', env: { DATABASE_URL: databaseUrl } });
  else log('no --pg / BENCH_DATABASE_URL: the history on PostgreSQL is not measured');

  const rows = [];
  for (const database of databases) {
    const server = await startDial(database.env);
    let written = [];
    try {
      const others = [];
      for (let i = 0; i < 4; i++) others.push(await createAccount(server));
      const long = await createAccount(server);
      const short = await createAccount(server);
      written = [long.userId, short.userId];
      const started = performance.now();
      await writeRows(server, historyRows(long, others, longHistory));
      await writeRows(server, historyRows(short, others, SHORT_HISTORY));
      log(
        `${database.name}: wrote ${longHistory} and ${SHORT_HISTORY} transfers in ` +
          `${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      await checkFirstPage(server, long, longHistory);
      await checkFirstPage(server, short, SHORT_HISTORY);

      // A short warm-up of each, so the first round does not measure the JIT.
      await load(server, PATH, { cookie: short.cookie }, Math.min(seconds, 1));
      await load(server, PATH, { cookie: long.cookie }, Math.min(seconds, 1));
      const runs = [];
      for (let round = 1; round <= rounds; round++) {
        // The short history right before the long one: both see the same moment of a busy machine.
        const reference = await load(server, PATH, { cookie: short.cookie }, seconds);
        const value = await load(server, PATH, { cookie: long.cookie }, seconds);
        runs.push({ value, reference });
        log(
          `round ${round}/${rounds} ${database.name}: ${value.perSecond.toFixed(0)} vs ` +
            `${reference.perSecond.toFixed(0)} req/s; ${value.cpuPerRequest.toFixed(0)} vs ` +
            `${reference.cpuPerRequest.toFixed(0)} µs CPU a request; p99 ${value.p99Ms} vs ${reference.p99Ms} ms`,
        );
      }
      // How many times longer the long history's answer takes: the short one's req/s over the long one's.
      const ratios = runs.map(({ value, reference }) => reference.perSecond / value.perSecond);
      const ratio = median(ratios);
      rows.push({
        figure: `history's first page (GET /api/activity?limit=${WALLET_PAGE_SIZE}) req/s, ${longHistory.toLocaleString('en-US')} transfers vs ${SHORT_HISTORY}, ${database.name} (median of ${rounds})`,
        value: Math.round(median(runs.map(({ value }) => value.perSecond))),
        reference: Math.round(median(runs.map(({ reference }) => reference.perSecond))),
        ratio: round2(ratio),
        goal: `≤ ${GOAL_RATIO}× slower than the ${SHORT_HISTORY}-transfer history's (its req/s ÷ this)`,
        met: ratio <= GOAL_RATIO,
        unit: 'req/s',
        ratios,
        cpuRatio: round2(
          median(runs.map(({ value, reference }) => value.cpuPerRequest / reference.cpuPerRequest)),
        ),
        note: `p99 ${median(runs.map(({ value }) => value.p99Ms))} vs ${median(runs.map(({ reference }) => reference.p99Ms))} ms`,
      });
    } finally {
      if (written.length > 0 && database.env.DATABASE_URL !== undefined) {
        // The long history would make every later run's table longer: it goes; the users stay.
        await writeRows(server, [
          [
            'delete from transfers where sender_user_id = $1 or recipient_user_id = $1 or sender_user_id = $2 or recipient_user_id = $2',
            written,
          ],
        ]);
      }
      await server.stop();
    }
  }
  return rows;
}

/**
 * `count` settled Dial transfers of `user`'s, newest first over the last 100 days (a few sharing a
 * millisecond): every other one sent to one of `others` (by their number, or by their address), the rest
 * received from one of them; USDC and the native coin, confirmed and now and then failed.
 */
export function historyRows(user, others, count) {
  const now = Date.now();
  const statements = [];
  for (let i = 0; i < count; i++) {
    const other = others[i % others.length];
    const sent = i % 2 === 0;
    const sender = sent ? user : other;
    const recipient = sent ? other : user;
    // Every tenth one shares its millisecond with the one before: keyset paging must order them by id.
    const created = new Date(now - Math.floor((i - (i % 10 === 9 ? 1 : 0)) * ((100 * DAY_MS) / count)));
    const iso = created.toISOString();
    statements.push([
      'insert into transfers (id, sender_user_id, chain_id, tx_hash, from_address, to_address, asset, amount, recipient_user_id, recipient_phone, status, created_at, updated_at, next_check_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)',
      [
        randomUUID(),
        sender.userId,
        CHAIN_IDS[i % CHAIN_IDS.length],
        `0x${randomBytes(32).toString('hex')}`,
        sender.address,
        recipient.address,
        i % 3 === 0 ? 'native' : 'usdc',
        String(1_000_000 + i),
        recipient.userId,
        sent && i % 4 === 0 ? recipient.phone : null,
        i % 50 === 7 ? 'failed' : 'confirmed',
        iso,
        iso,
        null,
      ],
    ]);
  }
  return statements;
}

/**
 * Fails unless `GET /api/activity` gives `user` the first page the bench means: a full page of their
 * transfers and a cursor when the history is longer than a page, the whole history otherwise.
 */
async function checkFirstPage(server, user, count) {
  const page = await new Promise((resolve, reject) => {
    const req = request(server.url(PATH), { headers: { cookie: user.cookie } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => {
        if (res.statusCode === 200) resolve(JSON.parse(body));
        else reject(new Error(`GET ${PATH} answered ${res.statusCode}: ${body}`));
      });
    });
    req.on('error', reject);
    req.end();
  });
  const dial = page.items.filter((item) => item.source === 'dial').length;
  const expected = count > page.items.length ? 'a full page and a cursor' : 'all of them and no cursor';
  const right =
    dial === page.items.length &&
    page.items.length > 0 &&
    (count > page.items.length
      ? page.nextCursor !== null
      : page.items.length === count && page.nextCursor === null);
  if (!right) {
    throw new Error(
      `GET ${PATH} for a history of ${count} transfers (${expected}) gave ${page.items.length} entries ` +
        `(${dial} Dial transfers) and nextCursor ${JSON.stringify(page.nextCursor)}`,
    );
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchActivity(
    parseOptions(process.argv.slice(2), {
      '--smoke': ['smoke', 'flag'],
      '--rounds': ['rounds', 'count'],
      '--seconds': ['seconds', 'number'],
      '--transfers': ['transfers', 'count'],
      '--pg': ['databaseUrl', 'text'],
    }),
  );
  console.log(formatRows(rows));
}
