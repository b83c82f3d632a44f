import { LOCAL_CHAIN_ID } from '@dial/core';
import { type DevChain, startDevChain } from '@dial/devchain';
import { Kysely, PostgresDialect, SqliteAdapter, sql } from 'kysely';
import pg from 'pg';
import type { Address } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../src/app.js';
import type { AppConfig } from '../src/config/index.js';
import type { Database } from '../src/db/database.js';
import { sweepExpiredRows, WALLET_EVENT_RETENTION_MS } from '../src/db/sweepExpiredRows.js';
import { publishWalletEvent } from '../src/events/walletEvents.js';
import { connectRedis } from '../src/rateLimit/connectRedis.js';
import { localChainConfig, personWithWallet, QUIET_TIMER, recordTransfer } from './activityPeople.js';
import { fundedActor } from './chainActors.js';
import { DIALECTS, dialectLabel, type TestDialect, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { gate } from './gate.js';
import { NEEDS_TEST_REDIS_URL, testRedisUrl, useRedisKeyPrefix } from './redis.js';
import { closeStreams, listen, openStream, type SseClient } from './sseClient.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';
import { randomShare, registerWallet, signedRotation } from './walletProof.js';

// Issue 11 §1: the live stream (`GET /api/events`). Real HTTP on loopback, a real SSE client, real
// databases; across two servers on one PostgreSQL, a real local chain for the transfers.

const BOB_PHONE = '+447400987654';
const MALLORY_PHONE = '+447400555111';
const serverUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

let chain: DevChain;
beforeAll(async () => {
  chain = await startDevChain({ port: 0 });
});
afterAll(async () => {
  await chain.close();
});
// Before testApp's afterEach closes the apps (registered later, so it runs first).
afterEach(() => {
  closeStreams();
});

const activity = (entryId: string, change: 'added' | 'settled', direction: 'sent' | 'received') => ({
  kind: 'activity' as const,
  entryId,
  chainId: LOCAL_CHAIN_ID,
  change,
  direction,
});

/** A second connection pool to the same PostgreSQL schema, as another server has (PGlite: the same one). */
async function secondConnection(db: Kysely<Database>): Promise<Kysely<Database>> {
  if (serverUrl === undefined) return db;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const pool = new pg.Pool({
    connectionString: serverUrl,
    max: 3,
    options: `-c search_path=${rows[0]!.schema}`,
  });
  const other = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  poolsToClose.push(other);
  return other;
}
const poolsToClose: Kysely<Database>[] = [];
afterEach(async () => {
  while (poolsToClose.length > 0) await poolsToClose.pop()?.destroy();
});

/** Appends an event with a seq chosen by the test (below ones already there: a late commit's effect). */
async function insertWithSeq(db: Kysely<Database>, seq: number, userId: string, payload: object) {
  const values = sql`(${seq}, ${userId}, 'activity', ${JSON.stringify(payload)}, ${new Date().toISOString()})`;
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await sql`insert into wallet_events (seq, user_id, kind, payload, created_at) values ${values}`.execute(
      db,
    );
  } else {
    await sql`insert into wallet_events (seq, user_id, kind, payload, created_at) overriding system value values ${values}`.execute(
      db,
    );
  }
}

async function seqsOf(db: Kysely<Database>, userId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('wallet_events')
    .select('seq')
    .where('user_id', '=', userId)
    .orderBy('seq')
    .execute();
  return rows.map((row) => Number(row.seq));
}

/** The same Redis URL on another database number (the one below, or 1 for 0), as another deployment has. */
function urlOfAnotherDatabase(url: string): string {
  const parsed = new URL(url);
  const database = Number(parsed.pathname.slice(1) || '0');
  parsed.pathname = `/${database === 0 ? 1 : database - 1}`;
  return parsed.href;
}

/** Deletes the keys under `prefix` in the Redis at `url` (never FLUSHDB: the Redis may be shared). */
async function deleteKeysUnder(url: string, prefix: string): Promise<void> {
  const client = await connectRedis(url);
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
  } finally {
    client.destroy();
  }
}

function dataOf(client: SseClient): unknown[] {
  return client.messages().map((message) => message.data);
}

describe.each(DIALECTS)('the live stream on %s', (dialect: TestDialect) => {
  const db = useTestDatabase(dialect);

  async function server(
    options: { config?: Partial<AppConfig>; deps?: AppDeps; db?: Kysely<Database> } = {},
  ): Promise<{ t: TestApp; url: string }> {
    const t = await createTestApp(options.db ?? db(), {
      config: { ...localChainConfig(chain), ...options.config },
      deps: { ...QUIET_TIMER, ...options.deps },
    });
    return { t, url: await listen(t.app) };
  }

  it('opens for a signed-in user with the retry hint and the current id, and refuses anyone else with 401', async () => {
    const { t, url } = await server();
    const { token } = await t.signIn('sms', PHONE);

    const stream = await openStream(url, token);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    await stream.waitFor((block) => block.id === '0');
    expect(stream.blocks[0]).toMatchObject({ retry: '3000', data: undefined });

    const anonymous = await openStream(url, undefined);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toMatchObject({ error: { code: 'unauthorized' } });
    const forged = await openStream(url, 'A'.repeat(43));
    expect(forged.status).toBe(401);
  });

  it("streams the user's events as they are appended, each with its id, and sends heartbeats", async () => {
    const { t, url } = await server({ deps: { walletStreams: { heartbeatMs: 200 } } });
    const { token, response } = await t.signIn('sms', PHONE);
    const userId: string = response.json().user.id;
    const stream = await openStream(url, token);
    await stream.waitFor((block) => block.id === '0');

    await publishWalletEvent({ db: db(), now: t.clock.now }, userId, activity('a1', 'added', 'sent'));
    await publishWalletEvent({ db: db(), now: t.clock.now }, userId, { kind: 'keys', generation: 2 });
    await stream.waitFor((block) => block.data?.includes('"keys"') === true);
    const seqs = await seqsOf(db(), userId);
    expect(stream.messages()).toEqual([
      { id: String(seqs[0]), data: activity('a1', 'added', 'sent') },
      { id: String(seqs[1]), data: { kind: 'keys', generation: 2 } },
    ]);
    await stream.waitFor((block) => block.comments > 0, 3_000);
  });

  it('resumes after Last-Event-ID (or ?after=) with the events since, and sends reset for an id it cannot resume from', async () => {
    const { t, url } = await server();
    const { token, response } = await t.signIn('sms', PHONE);
    const userId: string = response.json().user.id;
    const deps = { db: db(), now: t.clock.now };
    await publishWalletEvent(deps, userId, activity('e1', 'added', 'sent'));
    await publishWalletEvent(deps, userId, activity('e2', 'added', 'sent'));
    await publishWalletEvent(deps, userId, activity('e3', 'settled', 'sent'));
    const [first, second, third] = await seqsOf(db(), userId);

    const resumed = await openStream(url, token, { headers: { 'last-event-id': String(first) } });
    await resumed.waitFor((block) => block.id === String(third));
    expect(resumed.messages()).toEqual([
      { id: String(second), data: activity('e2', 'added', 'sent') },
      { id: String(third), data: activity('e3', 'settled', 'sent') },
    ]);
    const byQuery = await openStream(url, token, { path: `/api/events?after=${second}` });
    await byQuery.waitFor((block) => block.id === String(third));
    expect(dataOf(byQuery)).toEqual([activity('e3', 'settled', 'sent')]);
    // The header wins over the query (EventSource sends it when it reconnects to the same URL).
    const both = await openStream(url, token, {
      path: `/api/events?after=${first}`,
      headers: { 'last-event-id': String(third) },
    });
    await both.waitFor((block) => block.id === String(third));
    expect(both.messages()).toEqual([]);

    // An id this user never had, and one that is not an id at all: reset, with the current id.
    for (const id of ['999999', 'abc']) {
      const reset = await openStream(url, token, { headers: { 'last-event-id': id } });
      const block = await reset.waitFor((candidate) => candidate.event === 'reset');
      expect(block).toMatchObject({ id: String(third), data: '{}' });
      expect(reset.messages()).toEqual([]);
      reset.close();
    }
    expectError(await t.get('/api/events?after=1x', { token }), 400, 'invalid_data');

    // Swept: older than the retention, the events are gone and the stream says to reload.
    t.clock.advance(WALLET_EVENT_RETENTION_MS + 60_000);
    await sweepExpiredRows(db(), t.clock.now(), t.config);
    expect(await seqsOf(db(), userId)).toEqual([]);
    // The session has ended meanwhile too: the browser signs in again, its stream resumes from the old id.
    const again = await t.signIn('sms', PHONE);
    const swept = await openStream(url, again.token, { headers: { 'last-event-id': String(first) } });
    const block = await swept.waitFor((candidate) => candidate.event === 'reset');
    expect(block.id).toBe('0');
    expect(swept.messages()).toEqual([]);
  });

  it("never streams another user's events, not even to a stream resumed from their id", async () => {
    const { t, url } = await server({ deps: { walletStreams: { pollMs: 100 } } });
    const bob = await t.signIn('sms', BOB_PHONE);
    const mallory = await t.signIn('sms', MALLORY_PHONE);
    const bobId: string = bob.response.json().user.id;
    const malloryId: string = mallory.response.json().user.id;
    const deps = { db: db(), now: t.clock.now };
    await publishWalletEvent(deps, bobId, activity('bob-1', 'settled', 'received'));
    const [bobSeq] = await seqsOf(db(), bobId);

    const mallorys = await openStream(url, mallory.token);
    // Resumed from an id of Bob's (ids are one sequence for everybody): nothing of Bob's is replayed.
    const probing = await openStream(url, mallory.token, {
      headers: { 'last-event-id': String(bobSeq) },
    });
    const probingReset = await probing.waitFor((block) => block.event === 'reset');
    expect(probingReset.id).toBe('0');
    const bobs = await openStream(url, bob.token);
    await publishWalletEvent(deps, bobId, activity('bob-2', 'settled', 'received'));
    await publishWalletEvent(deps, malloryId, activity('mallory-1', 'added', 'sent'));
    await bobs.waitFor((block) => block.data?.includes('bob-2') === true);
    await mallorys.waitFor((block) => block.data?.includes('mallory-1') === true);
    await probing.waitFor((block) => block.data?.includes('mallory-1') === true);
    expect(dataOf(bobs)).toEqual([activity('bob-2', 'settled', 'received')]);
    expect(dataOf(mallorys)).toEqual([activity('mallory-1', 'added', 'sent')]);
    expect(dataOf(probing)).toEqual([activity('mallory-1', 'added', 'sent')]);
    expect(mallorys.body).not.toContain('bob-');
    expect(probing.body).not.toContain('bob-');
  });

  it('delivers an event whose id committed after a higher one, once, under the id already reached', async () => {
    const { t, url } = await server({ deps: { walletStreams: { pollMs: 100 } } });
    const { token, response } = await t.signIn('sms', PHONE);
    const userId: string = response.json().user.id;
    const deps = { db: db(), now: t.clock.now };
    await publishWalletEvent(deps, userId, activity('before', 'added', 'sent'));
    const [base] = await seqsOf(db(), userId);
    const stream = await openStream(url, token);
    await stream.waitFor((block) => block.id === String(base));

    // seq base+10 is visible first; base+5 (taken earlier, committed later) appears after it.
    await insertWithSeq(db(), base! + 10, userId, activity('higher', 'added', 'sent'));
    await stream.waitFor((block) => block.data?.includes('higher') === true);
    await insertWithSeq(db(), base! + 5, userId, activity('late', 'added', 'sent'));
    await stream.waitFor((block) => block.data?.includes('late') === true);
    // Several more polls: each event exactly once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(stream.messages()).toEqual([
      { id: String(base! + 10), data: activity('higher', 'added', 'sent') },
      { id: String(base! + 10), data: activity('late', 'added', 'sent') },
    ]);
  });

  it('refuses a sixth stream of one user with 429 too_many_streams, and opens one again once another closed', async () => {
    const { t, url } = await server();
    const { token } = await t.signIn('sms', PHONE);
    const other = await t.signIn('sms', BOB_PHONE);
    const open = await Promise.all([1, 2, 3, 4, 5].map(() => openStream(url, token)));
    expect(open.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);

    const sixth = await openStream(url, token);
    expect(sixth.status).toBe(429);
    expect(JSON.parse(sixth.body)).toMatchObject({ error: { code: 'too_many_streams' } });
    // Another user is not affected.
    expect((await openStream(url, other.token)).status).toBe(200);

    open[0]!.close();
    await expect.poll(async () => (await openStream(url, token)).status, { timeout: 5_000 }).toBe(200);
  });

  it('ends the stream with an end event when its session is ended', async () => {
    const { t, url } = await server({ deps: { walletStreams: { sessionCheckMs: 100, pollMs: 100 } } });
    const { token } = await t.signIn('sms', PHONE);
    const stream = await openStream(url, token);
    await stream.waitFor((block) => block.id === '0');
    expect((await t.post('/api/auth/logout', {}, { token })).statusCode).toBe(200);
    await stream.waitFor((block) => block.event === 'end');
    await stream.ended;
  });

  it('ends the stream when its session expires by being idle, without the stream keeping it alive', async () => {
    const { t, url } = await server({ deps: { walletStreams: { sessionCheckMs: 100, pollMs: 100 } } });
    const { token } = await t.signIn('sms', PHONE);
    const stream = await openStream(url, token);
    await stream.waitFor((block) => block.id === '0');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stream.isEnded()).toBe(false);
    t.clock.advance(t.config.session.idleHours * 3_600_000);
    await stream.waitFor((block) => block.event === 'end');
  });

  it('publishes a Dial transfer to both sides: added for its sender, settled for sender and recipient', async () => {
    const { t, url } = await server();
    const aliceKey = await fundedActor(chain);
    const bobKey = await fundedActor(chain);
    const alice = await personWithWallet(t, db(), 'sms', PHONE, aliceKey.address);
    const bob = await personWithWallet(t, db(), 'sms', BOB_PHONE, bobKey.address);
    const alices = await openStream(url, alice.token);
    const bobs = await openStream(url, bob.token);

    const hash = await aliceKey.sendNative(bob.address as Address, 50_000n);
    const recorded = await recordTransfer(t, alice.token, {
      chainId: LOCAL_CHAIN_ID,
      txHash: hash,
      to: bob.address,
      asset: 'native',
      amount: '50000',
    });
    expect(recorded.statusCode).toBe(201);
    const id: string = recorded.json().id;
    await bobs.waitFor((block) => block.data !== undefined);
    await alices.waitFor((block) => block.data?.includes('settled') === true);
    expect(dataOf(alices)).toEqual([activity(id, 'added', 'sent'), activity(id, 'settled', 'sent')]);
    expect(dataOf(bobs)).toEqual([activity(id, 'settled', 'received')]);
  });

  it('publishes the new key generation when the shares are rotated', async () => {
    const { t, url } = await server();
    const { token } = await t.signIn('sms', PHONE);
    const { response, wallet } = await registerWallet(t, token);
    expect(response.statusCode).toBe(201);
    const stream = await openStream(url, token);
    await stream.waitFor((block) => block.id !== undefined);
    const body = await signedRotation(t, token, wallet, { expectedGeneration: 1, authShare: randomShare() });
    const rotated = await t.app.inject({
      method: 'PUT',
      url: '/api/wallet/shares',
      headers: { origin: 'http://localhost:8080', cookie: `dial_session=${token}` },
      payload: body,
    });
    expect(rotated.statusCode).toBe(200);
    await stream.waitFor((block) => block.data !== undefined);
    expect(dataOf(stream)).toEqual([{ kind: 'keys', generation: 2 }]);
  });

  it('ends every stream when the app closes', async () => {
    const { t, url } = await server();
    const { token } = await t.signIn('sms', PHONE);
    const stream = await openStream(url, token);
    await stream.waitFor((block) => block.id === '0');
    await t.app.close();
    await stream.ended;
  });

  it('logs nothing for a stream at the info level, where other requests log', async () => {
    const lines: string[] = [];
    const { t, url } = await server({
      config: { logLevel: 'info' },
      deps: { logStream: { write: (line: string) => void lines.push(line) } },
    });
    const { token } = await t.signIn('sms', PHONE);
    expect(lines.some((line) => line.includes('/api/auth/otp/verify'))).toBe(true);
    const stream = await openStream(url, token);
    await stream.waitFor((block) => block.id === '0');
    stream.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lines.filter((line) => line.includes('/api/events'))).toEqual([]);
  });

  describe.runIf(dialect === 'postgres')(`two servers on one ${dialectLabel('postgres')}`, () => {
    async function twoServers(options: { config?: Partial<AppConfig>; deps?: AppDeps } = {}) {
      const a = await server(options);
      const b = await server({
        ...options,
        config: { ...options.config, shareEncryptionKey: a.t.config.shareEncryptionKey },
        db: await secondConnection(db()),
      });
      return { a, b };
    }

    it('a transfer recorded and settled through server A reaches the recipient streaming from server B within seconds', async () => {
      const { a, b } = await twoServers();
      const aliceKey = await fundedActor(chain);
      const bobKey = await fundedActor(chain);
      const alice = await personWithWallet(a.t, db(), 'sms', PHONE, aliceKey.address);
      const bob = await personWithWallet(a.t, db(), 'sms', BOB_PHONE, bobKey.address);
      const bobs = await openStream(b.url, bob.token);
      const alicesOnB = await openStream(b.url, alice.token);
      await bobs.waitFor((block) => block.id !== undefined);

      const hash = await aliceKey.sendNative(bob.address as Address, 70_000n);
      const started = Date.now();
      const recorded = await recordTransfer(a.t, alice.token, {
        chainId: LOCAL_CHAIN_ID,
        txHash: hash,
        to: bob.address,
        asset: 'native',
        amount: '70000',
      });
      expect(recorded.statusCode).toBe(201);
      await bobs.waitFor((block) => block.data !== undefined, 5_000);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(dataOf(bobs)).toEqual([activity(recorded.json().id, 'settled', 'received')]);
      await alicesOnB.waitFor((block) => block.data?.includes('settled') === true, 5_000);
    });

    it('a session ended through server A ends its stream on server B', async () => {
      const { a, b } = await twoServers({ deps: { walletStreams: { sessionCheckMs: 200 } } });
      const { token } = await a.t.signIn('sms', PHONE);
      const onB = await openStream(b.url, token);
      await onB.waitFor((block) => block.id === '0');
      expect((await a.t.post('/api/auth/logout', {}, { token })).statusCode).toBe(200);
      await onB.waitFor((block) => block.event === 'end', 5_000);
      await onB.ended;
    });

    it.runIf(serverUrl !== undefined)(
      'an event whose transaction commits after a later one (real concurrent transactions) still reaches the stream on the other server, once',
      async () => {
        const { a, b } = await twoServers({ deps: { walletStreams: { pollMs: 100 } } });
        const { token, response } = await a.t.signIn('sms', PHONE);
        const userId: string = response.json().user.id;
        const onB = await openStream(b.url, token);
        await onB.waitFor((block) => block.id === '0');

        const held = gate();
        const taken = gate();
        // Server A's transaction takes the lower id and stays open while another one commits a higher id.
        const slow = db()
          .transaction()
          .execute(async (trx) => {
            await publishWalletEvent(
              { db: trx, now: a.t.clock.now },
              userId,
              activity('slow', 'added', 'sent'),
            );
            taken.open();
            await held.opened;
          });
        await taken.opened;
        try {
          const other = await secondConnection(db());
          await publishWalletEvent(
            { db: other, now: a.t.clock.now },
            userId,
            activity('fast', 'added', 'sent'),
          );
          await onB.waitFor((block) => block.data?.includes('fast') === true);
          // Only the later id is visible yet.
          const [fastSeq, ...rest] = await seqsOf(other, userId);
          expect(rest).toEqual([]);
          held.open();
          await slow;
          await onB.waitFor((block) => block.data?.includes('slow') === true, 5_000);
          await new Promise((resolve) => setTimeout(resolve, 400));
          const [slowSeq] = await seqsOf(db(), userId);
          expect(slowSeq).toBeLessThan(fastSeq!);
          expect(onB.messages()).toEqual([
            { id: String(fastSeq), data: activity('fast', 'added', 'sent') },
            { id: String(fastSeq), data: activity('slow', 'added', 'sent') },
          ]);
        } finally {
          // A failure must not leave the transaction open: the schema could not be dropped after the test.
          held.open();
          await slow.catch(() => {});
        }
      },
    );

    describe.runIf(testRedisUrl !== undefined)(`with Redis ${NEEDS_TEST_REDIS_URL}`, () => {
      const prefix = useRedisKeyPrefix();

      it('wakes the stream on server B at once through Redis, long before its next poll', async () => {
        const redis = { url: testRedisUrl!, keyPrefix: prefix() };
        // A poll once a minute: only the wake-up can bring the event within the test's seconds.
        const { a, b } = await twoServers({ config: { redis }, deps: { walletStreams: { pollMs: 60_000 } } });
        const aliceKey = await fundedActor(chain);
        const bobKey = await fundedActor(chain);
        const alice = await personWithWallet(a.t, db(), 'sms', PHONE, aliceKey.address);
        const bob = await personWithWallet(a.t, db(), 'sms', BOB_PHONE, bobKey.address);
        const onB = await openStream(b.url, bob.token);
        await onB.waitFor((block) => block.id === '0');
        const hash = await aliceKey.sendNative(bob.address as Address, 30_000n);
        const started = Date.now();
        const recorded = await recordTransfer(a.t, alice.token, {
          chainId: LOCAL_CHAIN_ID,
          txHash: hash,
          to: bob.address,
          asset: 'native',
          amount: '30000',
        });
        expect(recorded.statusCode).toBe(201);
        await onB.waitFor((block) => block.data !== undefined, 3_000);
        expect(Date.now() - started).toBeLessThan(3_000);
        expect(dataOf(onB)).toEqual([activity(recorded.json().id, 'settled', 'received')]);
      });

      it('never wakes another deployment sharing the Redis (another database number, or another APP_ID), while its own servers wake each other', async () => {
        // Deployments all use one key prefix (`dial:rate:` in production); here this test's own.
        const ours = { url: testRedisUrl!, keyPrefix: prefix() };
        const otherDatabase = { ...ours, url: urlOfAnotherDatabase(testRedisUrl!) };
        const quiet = { walletStreams: { pollMs: 60_000 } };
        const { a, b } = await twoServers({ config: { redis: ours }, deps: quiet });
        // Two other deployments on the same Redis. They read this test's SQL database only so that a wake-up
        // would show: a woken stream reads the event at once, one left alone only at its next poll, a minute on.
        const key = { shareEncryptionKey: a.t.config.shareEncryptionKey };
        const onOtherDatabase = await server({ config: { ...key, redis: otherDatabase }, deps: quiet });
        const otherApp = await server({
          config: { ...key, redis: ours, appId: 'other.example' },
          deps: quiet,
        });
        try {
          const aliceKey = await fundedActor(chain);
          const bobKey = await fundedActor(chain);
          const alice = await personWithWallet(a.t, db(), 'sms', PHONE, aliceKey.address);
          const bob = await personWithWallet(a.t, db(), 'sms', BOB_PHONE, bobKey.address);
          const streams = [b, onOtherDatabase, otherApp].map(({ url }) => openStream(url, bob.token));
          const [onB, onOtherDatabaseStream, onOtherApp] = await Promise.all(streams);
          for (const stream of [onB!, onOtherDatabaseStream!, onOtherApp!]) {
            await stream.waitFor((block) => block.id === '0');
          }
          const hash = await aliceKey.sendNative(bob.address as Address, 40_000n);
          const recorded = await recordTransfer(a.t, alice.token, {
            chainId: LOCAL_CHAIN_ID,
            txHash: hash,
            to: bob.address,
            asset: 'native',
            amount: '40000',
          });
          expect(recorded.statusCode).toBe(201);
          await onB!.waitFor((block) => block.data !== undefined, 3_000);
          expect(dataOf(onB!)).toEqual([activity(recorded.json().id, 'settled', 'received')]);
          // Well after server B was woken: the other deployments heard nothing.
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          expect({ otherDatabase: dataOf(onOtherDatabaseStream!), otherApp: dataOf(onOtherApp!) }).toEqual({
            otherDatabase: [],
            otherApp: [],
          });
        } finally {
          await deleteKeysUnder(otherDatabase.url, ours.keyPrefix);
        }
      });
    });
  });
});
