import { randomBytes } from 'node:crypto';
import { LOCAL_CHAIN_ID } from '@dial/core';
import { type DevChain, startDevChain } from '@dial/devchain';
import { Migrator } from 'kysely';
import { type Address, getAddress, type Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  checkTransfer,
  retryDelayMs,
  runDueTransferChecks,
  TRANSFER_CHECKS,
  type TransferCheckDeps,
} from '../src/activity/transferChecks.js';
import { createChainReader } from '../src/chain/chainReader.js';
import type { AppConfig } from '../src/config/index.js';
import { migrateToLatest } from '../src/db/migrateToLatest.js';
import { MIGRATIONS, migrationProvider } from '../src/db/migrations/index.js';
import {
  askToCheck,
  listActivity,
  localChainConfig,
  type Person,
  personWithWallet,
  QUIET_TIMER,
  recordTransfer,
} from './activityPeople.js';
import { fundedActor, mineBlock, pauseMining, resumeMining } from './chainActors.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectConstraintViolation } from './expectConstraintViolation.js';
import { expectError } from './expectError.js';
import { startTcpProxy, type TcpProxy } from './tcpProxy.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';

// Issue 8 §4: a transfer is shown to its recipient only once the server has read it from the chain, from
// the recorder's registered wallet, to the recipient, with the amount; a hash can be claimed by its real
// sender only; the checks run from a schedule in the database, with backoff, on any server. Everything here
// runs against a real local chain (EDR) and real transactions.

const ALICE_PHONE = PHONE; // masked *3456
const BOB_PHONE = '+447400987654'; // masked *7654
const MALLORY_PHONE = '+447400555111'; // masked *5111
const CAROL = getAddress('0x00000000000000000000000000000000000000c0');
const LOCAL = LOCAL_CHAIN_ID;
const USDC = 1_000_000n;

let chain: DevChain;
beforeAll(async () => {
  chain = await startDevChain({ port: 0 });
});
afterAll(async () => {
  await chain.close();
});

function native(txHash: string, to: string, amount: bigint) {
  return { chainId: LOCAL, txHash, to, asset: 'native', amount: amount.toString() };
}

function usdc(txHash: string, to: string, amount: bigint) {
  return { chainId: LOCAL, txHash, to, asset: 'usdc', amount: amount.toString() };
}

function madeUpHash(): Hex {
  return `0x${randomBytes(32).toString('hex')}`;
}

describe.each(DIALECTS)('activity checked against the chain on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  async function chainApp(config: Partial<AppConfig> = localChainConfig(chain)) {
    return createTestApp(db(), { config, deps: QUIET_TIMER });
  }

  /** What another server (or this one's timer) uses to run the checks: same database, its own reader. */
  function checker(t: TestApp, timeoutMs?: number): TransferCheckDeps {
    return {
      db: db(),
      chain: createChainReader(t.config, timeoutMs === undefined ? {} : { timeoutMs }),
      now: t.clock.now,
    };
  }

  async function people(t: TestApp, funding: { usdc?: bigint } = {}) {
    const [aliceKey, malloryKey, bobKey] = await Promise.all([
      fundedActor(chain, funding),
      fundedActor(chain),
      fundedActor(chain),
    ]);
    const alice = await personWithWallet(t, db(), 'sms', ALICE_PHONE, aliceKey.address);
    const mallory = await personWithWallet(t, db(), 'sms', MALLORY_PHONE, malloryKey.address);
    const bob = await personWithWallet(t, db(), 'sms', BOB_PHONE, bobKey.address);
    return { alice, mallory, bob, aliceKey, malloryKey, bobKey };
  }

  async function received(t: TestApp, person: Person) {
    return (await listActivity(t, person.token))
      .json()
      .items.filter((item: { direction: string }) => item.direction === 'received');
  }

  async function rows() {
    return db()
      .selectFrom('transfers')
      .select(['sender_user_id', 'tx_hash', 'status', 'check_attempts', 'next_check_at', 'missing_since'])
      .orderBy('created_at')
      .execute();
  }

  describe('the hash claimer', () => {
    it('is refused with 403 not_your_transaction when the chain shows the transaction from another wallet; the real sender records it', async () => {
      const t = await chainApp();
      const { alice, mallory, bob, aliceKey } = await people(t);
      const hash = await aliceKey.sendNative(bob.address as Address, 50_000n);

      expectError(
        await recordTransfer(t, mallory.token, native(hash, bob.address, 50_000n)),
        403,
        'not_your_transaction',
      );
      expect(await rows()).toEqual([]);
      expect(await received(t, bob)).toEqual([]);

      const real = await recordTransfer(t, alice.token, native(hash, bob.address, 50_000n));
      expect(real.statusCode).toBe(201);
      expect(real.json()).toMatchObject({ status: 'confirmed', from: alice.address });
      expect(await received(t, bob)).toEqual([
        expect.objectContaining({ txHash: hash, from: alice.address, counterparty: { phone: '*3456' } }),
      ]);
      // Once proven, the hash is taken: refused without asking the chain again.
      expectError(
        await recordTransfer(t, mallory.token, native(hash, bob.address, 50_000n)),
        403,
        'not_your_transaction',
      );
      expect((await listActivity(t, mallory.token)).json().items).toEqual([]);
    });

    it('does not block the real sender when it claims a hash before the chain shows it, is never shown, and is dropped once the chain does', async () => {
      const t = await chainApp();
      const { alice, mallory, bob, aliceKey } = await people(t);
      // Mallory learns the hash before the transaction reaches the chain (signed, not yet sent).
      const { hash, raw } = await aliceKey.signNative(bob.address as Address, 70_000n);
      const claim = await recordTransfer(t, mallory.token, native(hash, bob.address, 70_000n));
      expect(claim.statusCode).toBe(201);
      expect(claim.json()).toMatchObject({ status: 'pending', from: mallory.address });
      expect(await received(t, bob)).toEqual([]);

      await aliceKey.sendRaw(raw);
      const real = await recordTransfer(t, alice.token, native(hash, bob.address, 70_000n));
      expect(real.statusCode).toBe(201);
      expect(real.json()).toMatchObject({ status: 'confirmed', from: alice.address });
      expect(await received(t, bob)).toEqual([
        expect.objectContaining({ from: alice.address, counterparty: { phone: '*3456' } }),
      ]);

      t.clock.advance(TRANSFER_CHECKS.firstRetryMs);
      const outcomes = await runDueTransferChecks(checker(t));
      expect([...outcomes.values()]).toEqual([
        { status: 'dropped', reason: 'not_sender', details: 'the transaction was sent from another wallet' },
      ]);
      expect((await listActivity(t, mallory.token)).json().items).toEqual([]);
      expect(await rows()).toEqual([
        expect.objectContaining({ sender_user_id: alice.userId, status: 'confirmed' }),
      ]);
    });
  });

  describe('made-up and wrong records', () => {
    it('never shows a made-up transfer to its recipient, ignores a client’s "confirmed", and drops it after the RPC said for an hour that it does not know it', async () => {
      const t = await chainApp();
      const { mallory, bob } = await people(t);
      const created = (
        await recordTransfer(t, mallory.token, native(madeUpHash(), bob.address, 10n ** 21n))
      ).json();
      expect(created.status).toBe('pending');
      const patched = await askToCheck(t, mallory.token, created.id, { status: 'confirmed' });
      expect(patched.statusCode).toBe(200);
      expect(patched.json().status).toBe('pending');
      expect(await received(t, bob)).toEqual([]);

      const deps = checker(t);
      const recordedAt = t.clock.now().getTime();
      while (
        t.clock.now().getTime() - recordedAt <
        TRANSFER_CHECKS.missingDropMs - TRANSFER_CHECKS.maxRetryMs
      ) {
        t.clock.advance(TRANSFER_CHECKS.maxRetryMs);
        await runDueTransferChecks(deps);
        expect(await rows()).toEqual([
          expect.objectContaining({ status: 'pending', missing_since: new Date(recordedAt).toISOString() }),
        ]);
        expect(await received(t, bob)).toEqual([]);
      }
      t.clock.advance(2 * TRANSFER_CHECKS.maxRetryMs);
      const outcomes = await runDueTransferChecks(deps);
      expect([...outcomes.values()]).toEqual([
        expect.objectContaining({ status: 'dropped', reason: 'missing' }),
      ]);
      expect(await rows()).toEqual([]);
    });

    it('keeps a record older than a day that the RPC does not know (a pruned index), unseen and checked rarely, rather than deleting it', async () => {
      const t = await chainApp();
      const { mallory, bob } = await people(t);
      const created = (
        await recordTransfer(t, mallory.token, native(madeUpHash(), bob.address, 10n ** 18n))
      ).json();
      // Recorded two days ago (before the server read the chain): the node may have pruned its index.
      const twoDaysAgo = new Date(t.clock.now().getTime() - 2 * 24 * 3_600_000).toISOString();
      await db()
        .updateTable('transfers')
        .set({ created_at: twoDaysAgo })
        .where('id', '=', created.id)
        .execute();
      const deps = checker(t);
      for (let hour = 0; hour < 3; hour++) {
        t.clock.advance(60 * 60_000);
        await runDueTransferChecks(deps);
      }
      const [row] = await rows();
      expect(row).toMatchObject({ status: 'pending' });
      expect(Date.parse(row!.next_check_at!) - t.clock.now().getTime()).toBe(TRANSFER_CHECKS.maxRetryMs);
      expect(await received(t, bob)).toEqual([]);
    });

    it('writes nothing from a check that outlived its claim: the server that claimed the row next decides', async () => {
      const t = await chainApp();
      const { mallory, bob } = await people(t);
      const created = (
        await recordTransfer(t, mallory.token, native(madeUpHash(), bob.address, 10n ** 18n))
      ).json();
      // Missing for over an hour: the next verdict drops it.
      const longAgo = new Date(t.clock.now().getTime() - 2 * TRANSFER_CHECKS.missingDropMs).toISOString();
      await db()
        .updateTable('transfers')
        .set({ missing_since: longAgo })
        .where('id', '=', created.id)
        .execute();
      // A stalled server claims the row, reads the chain, and stops before it writes…
      let resume: () => void = () => {};
      const stalled = new Promise<void>((resolve) => {
        resume = resolve;
      });
      const slow: TransferCheckDeps = {
        ...checker(t),
        chain: {
          usdcAddress: () => undefined,
          async readTransaction() {
            await stalled;
            return { transaction: null, receipt: null };
          },
        },
      };
      const first = checkTransfer(slow, created.id, 'hint');
      await vi.waitFor(async () => {
        expect((await rows())[0]?.check_attempts).toBe(2);
      });
      // …its claim runs out, and another server claims the row and is at work on it.
      t.clock.advance(TRANSFER_CHECKS.claimMs);
      const takenUntil = new Date(t.clock.now().getTime() + TRANSFER_CHECKS.claimMs).toISOString();
      await db()
        .updateTable('transfers')
        .set({ claimed_until: takenUntil })
        .where('id', '=', created.id)
        .execute();
      resume();
      await first;
      expect(await db().selectFrom('transfers').select('claimed_until').execute()).toEqual([
        { claimed_until: takenUntil },
      ]);
    });

    it('refuses a real transaction recorded with another amount, recipient or asset with 400 transfer_mismatch', async () => {
      const t = await chainApp();
      const { alice, bob, aliceKey } = await people(t, { usdc: 10n * USDC });
      const eth = await aliceKey.sendNative(bob.address as Address, 100n);
      const token = await aliceKey.sendUsdc(bob.address as Address, 5n * USDC);
      for (const body of [
        native(eth, bob.address, 101n),
        native(eth, CAROL, 100n),
        usdc(eth, bob.address, 100n),
        usdc(token, bob.address, 6n * USDC),
        usdc(token, CAROL, 5n * USDC),
        native(token, bob.address, 5n * USDC),
      ]) {
        expectError(await recordTransfer(t, alice.token, body), 400, 'transfer_mismatch');
      }
      expect(await rows()).toEqual([]);
      expect(await received(t, bob)).toEqual([]);
    });

    it('drops a record the chain contradicts once it shows the transaction, and tells the sender who asks', async () => {
      const t = await chainApp();
      const { alice, bob, aliceKey } = await people(t);
      const { hash, raw } = await aliceKey.signNative(bob.address as Address, 100n);
      const created = (await recordTransfer(t, alice.token, native(hash, bob.address, 999n))).json();
      expect(created.status).toBe('pending');
      await aliceKey.sendRaw(raw);
      expectError(await askToCheck(t, alice.token, created.id), 400, 'transfer_mismatch');
      expect(await rows()).toEqual([]);
      expectError(await askToCheck(t, alice.token, created.id), 404, 'not_found');
    });
  });

  describe('what the chain proves', () => {
    it('verifies a USDC transfer by the Transfer log of the chain’s USDC contract', async () => {
      const t = await chainApp();
      const { alice, bob, aliceKey } = await people(t, { usdc: 10n * USDC });
      const hash = await aliceKey.sendUsdc(bob.address as Address, 5n * USDC);
      const response = await recordTransfer(t, alice.token, usdc(hash, bob.address, 5n * USDC));
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ status: 'confirmed', asset: 'usdc', amount: '5000000' });
      expect(await received(t, bob)).toEqual([
        expect.objectContaining({ txHash: hash, asset: 'usdc', amount: '5000000', status: 'confirmed' }),
      ]);
    });

    it('makes a reverted transfer failed, from its receipt', async () => {
      const t = await chainApp();
      const { alice, bob, aliceKey } = await people(t, { usdc: USDC });
      // More than Alice holds, with the gas set so that it is sent anyway: mined, and reverted.
      const hash = await aliceKey.sendUsdc(bob.address as Address, 5n * USDC, { gas: 100_000n });
      const response = await recordTransfer(t, alice.token, usdc(hash, bob.address, 5n * USDC));
      expect(response.statusCode).toBe(201);
      expect(response.json().status).toBe('failed');
      expect(await received(t, bob)).toEqual([expect.objectContaining({ txHash: hash, status: 'failed' })]);
      // What a reverted call would have moved is read from its call data: another amount is a mismatch.
      const other = await aliceKey.sendUsdc(bob.address as Address, 7n * USDC, { gas: 100_000n });
      expectError(
        await recordTransfer(t, alice.token, usdc(other, bob.address, 5n * USDC)),
        400,
        'transfer_mismatch',
      );
    });

    it('keeps a transaction not mined yet pending (unseen by the recipient) and confirms it once mined, at its next check', async () => {
      const t = await chainApp();
      const { alice, bob, aliceKey } = await people(t);
      await pauseMining(chain);
      try {
        const hash = await aliceKey.sendNative(bob.address as Address, 1234n);
        const created = await recordTransfer(t, alice.token, native(hash, bob.address, 1234n));
        expect(created.statusCode).toBe(201);
        expect(created.json().status).toBe('pending');
        const recordedAt = t.clock.now().getTime();
        expect(await rows()).toEqual([
          {
            sender_user_id: alice.userId,
            tx_hash: hash,
            status: 'pending',
            check_attempts: 1,
            next_check_at: new Date(recordedAt + TRANSFER_CHECKS.firstRetryMs).toISOString(),
            missing_since: null,
          },
        ]);
        expect(await received(t, bob)).toEqual([]);
        const deps = checker(t);
        expect((await runDueTransferChecks(deps)).size).toBe(0);

        await mineBlock(chain);
        // Not due yet: nothing is read before its time.
        expect((await runDueTransferChecks(deps)).size).toBe(0);
        t.clock.advance(TRANSFER_CHECKS.firstRetryMs);
        expect([...(await runDueTransferChecks(deps)).values()]).toEqual([{ status: 'confirmed' }]);
        expect(await received(t, bob)).toEqual([
          expect.objectContaining({ txHash: hash, status: 'confirmed' }),
        ]);
      } finally {
        await resumeMining(chain);
      }
    });

    it('checks at once when the sender asks (PATCH), whatever status the body names', async () => {
      const t = await chainApp();
      const { alice, bob, aliceKey } = await people(t);
      await pauseMining(chain);
      let id: string;
      try {
        const hash = await aliceKey.sendNative(bob.address as Address, 42n);
        id = (await recordTransfer(t, alice.token, native(hash, bob.address, 42n))).json().id;
        const still = await askToCheck(t, alice.token, id, { status: 'failed' });
        expect(still.json().status).toBe('pending');
        await mineBlock(chain);
      } finally {
        await resumeMining(chain);
      }
      // Before it is due: the hint runs the check now.
      const answer = await askToCheck(t, alice.token, id, { status: 'failed' });
      expect(answer.statusCode).toBe(200);
      expect(answer.json().status).toBe('confirmed');
      expect(await received(t, bob)).toHaveLength(1);
    });
  });

  describe('the schedule', () => {
    let proxy: TcpProxy;
    afterEach(async () => {
      await proxy?.close();
    });

    async function proxiedChain(): Promise<Partial<AppConfig>> {
      proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(chain.url).port) });
      return localChainConfig(chain, `http://127.0.0.1:${proxy.port}`);
    }

    it('retries a chain it cannot read with exponential backoff, never dropping the record, and confirms it once the RPC is back', async () => {
      const config = await proxiedChain();
      const t = await chainApp(config);
      const { alice, bob, aliceKey } = await people(t);
      const hash = await aliceKey.sendNative(bob.address as Address, 77n);
      await proxy.cut();
      const created = await recordTransfer(t, alice.token, native(hash, bob.address, 77n));
      expect(created.json().status).toBe('pending');

      const deps = checker(t);
      const waits: number[] = [];
      const started = t.clock.now().getTime();
      while (t.clock.now().getTime() - started < 3 * 3_600_000) {
        const [row] = await rows();
        const wait = Date.parse(row!.next_check_at!) - t.clock.now().getTime();
        waits.push(wait);
        t.clock.advance(wait);
        expect([...(await runDueTransferChecks(deps)).values()]).toEqual([
          { status: 'pending', chainError: expect.stringMatching(/^reading chain 31337 failed/) },
        ]);
      }
      expect(waits.slice(0, 9)).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 900].map((s) => s * 1000));
      expect(new Set(waits.slice(9))).toEqual(new Set([TRANSFER_CHECKS.maxRetryMs]));
      expect(await rows()).toEqual([
        expect.objectContaining({ status: 'pending', missing_since: null, check_attempts: waits.length + 1 }),
      ]);
      expect(await received(t, bob)).toEqual([]);

      await proxy.restore();
      // Back: the next checks read it (the first connections may still be refused while it comes back).
      let outcome: unknown;
      for (let tick = 0; tick < 5 && (outcome as { status?: string })?.status !== 'confirmed'; tick++) {
        t.clock.advance(TRANSFER_CHECKS.maxRetryMs);
        [outcome] = (await runDueTransferChecks(deps)).values();
      }
      expect(outcome).toEqual({ status: 'confirmed' });
      expect(await received(t, bob)).toHaveLength(1);
    });

    it('times out an RPC that hangs and tries again later', async () => {
      const config = await proxiedChain();
      const t = await chainApp(config);
      const { alice, bob, aliceKey } = await people(t);
      const hash = await aliceKey.sendNative(bob.address as Address, 78n);
      await proxy.cut();
      await recordTransfer(t, alice.token, native(hash, bob.address, 78n));
      await proxy.restore();
      proxy.silence();
      t.clock.advance(TRANSFER_CHECKS.firstRetryMs);
      const startedAt = Date.now();
      const outcomes = await runDueTransferChecks(checker(t, 300));
      expect(Date.now() - startedAt).toBeLessThan(5_000);
      expect([...outcomes.values()]).toEqual([{ status: 'pending', chainError: expect.any(String) }]);
      expect(await rows()).toEqual([expect.objectContaining({ status: 'pending', check_attempts: 2 })]);
    });

    it('survives a restart: recorded on one app, confirmed by the timer of another app on the same database', async () => {
      const config = await proxiedChain();
      const first = await chainApp(config);
      const { alice, bob, aliceKey } = await people(first);
      const hash = await aliceKey.sendNative(bob.address as Address, 79n);
      await proxy.cut();
      expect((await recordTransfer(first, alice.token, native(hash, bob.address, 79n))).json().status).toBe(
        'pending',
      );
      await first.app.close();
      await proxy.restore();

      const second = await createTestApp(db(), { config, deps: { transferCheckIntervalMs: 20 } });
      second.clock.advance(TRANSFER_CHECKS.firstRetryMs);
      await second.app.ready();
      await vi.waitFor(
        async () => {
          expect(await rows()).toEqual([expect.objectContaining({ status: 'confirmed' })]);
        },
        { timeout: 10_000, interval: 50 },
      );
      const bobSession = await second.signIn('sms', BOB_PHONE);
      const items = (await listActivity(second, bobSession.token)).json().items;
      expect(items).toEqual([expect.objectContaining({ direction: 'received', txHash: hash })]);
    });

    it('leaves a transfer claimed by another server alone until the claim runs out, and checks each transfer once when servers race', async () => {
      const t = await chainApp();
      const { alice, bob } = await people(t);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push((await recordTransfer(t, alice.token, native(madeUpHash(), bob.address, 1n))).json().id);
      }
      t.clock.advance(TRANSFER_CHECKS.firstRetryMs);
      // Another server claimed the first one and is still at it (or died at it).
      const claimedUntil = new Date(t.clock.now().getTime() + TRANSFER_CHECKS.claimMs).toISOString();
      await db()
        .updateTable('transfers')
        .set({ claimed_until: claimedUntil })
        .where('id', '=', ids[0]!)
        .execute();

      // Two servers tick at the same time: between them, each free transfer is checked exactly once.
      const [a, b] = await Promise.all([runDueTransferChecks(checker(t)), runDueTransferChecks(checker(t))]);
      const checked = [...a, ...b].filter(([, outcome]) => outcome.status !== 'skipped').map(([id]) => id);
      expect(checked.sort()).toEqual([ids[1], ids[2]].sort());
      expect(await checkTransfer(checker(t), ids[0]!, 'due')).toEqual({ status: 'skipped' });
      const attempts = await db().selectFrom('transfers').select(['id', 'check_attempts']).execute();
      expect(Object.fromEntries(attempts.map((row) => [row.id, Number(row.check_attempts)]))).toEqual({
        [ids[0]!]: 1,
        [ids[1]!]: 2,
        [ids[2]!]: 2,
      });

      t.clock.advance(TRANSFER_CHECKS.claimMs);
      expect([...(await runDueTransferChecks(checker(t))).keys()]).toContain(ids[0]);
    });

    it('checks a bounded number of transfers per tick, the longest due first', async () => {
      const t = await chainApp();
      const { alice, bob } = await people(t);
      for (let i = 0; i < TRANSFER_CHECKS.perTick + 5; i++) {
        await recordTransfer(t, alice.token, native(madeUpHash(), bob.address, 1n));
        t.clock.advance(1);
      }
      t.clock.advance(TRANSFER_CHECKS.firstRetryMs);
      const deps = checker(t);
      expect((await runDueTransferChecks(deps)).size).toBe(TRANSFER_CHECKS.perTick);
      expect((await runDueTransferChecks(deps)).size).toBe(5);
      expect((await runDueTransferChecks(deps)).size).toBe(0);
    });

    it('waits 5 s after the first check, doubling up to 15 minutes', () => {
      expect([1, 2, 3, 4, 8, 9, 10, 100].map(retryDelayMs)).toEqual([
        5_000, 10_000, 20_000, 40_000, 640_000, 900_000, 900_000, 900_000,
      ]);
    });
  });
});

describe.each(DIALECTS)('the transfers table (migration 0007) on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const at = '2030-01-01T12:00:00.000Z';
  const names = Object.keys(MIGRATIONS);
  const before0007 = names[names.indexOf('0007_transfer_checks') - 1]!;
  const hash = `0x${'1'.repeat(64)}`;

  async function users(...ids: string[]) {
    for (const id of ids) await db().insertInto('users').values({ id, created_at: at }).execute();
  }

  function row(overrides: Partial<Record<string, unknown>> = {}) {
    return {
      id: 't1',
      sender_user_id: 'u1',
      chain_id: 8453,
      tx_hash: hash,
      from_address: CAROL,
      to_address: CAROL,
      asset: 'usdc' as const,
      amount: '1',
      recipient_user_id: 'u2',
      recipient_phone: null,
      status: 'pending' as const,
      created_at: at,
      updated_at: at,
      next_check_at: at,
      checked_at: null,
      claimed_until: null,
      missing_since: null,
      ...overrides,
    };
  }

  it('keeps one row per chain, hash and sender, and at most one settled row per chain and hash', async () => {
    await users('u1', 'u2', 'u3');
    await db().insertInto('transfers').values(row()).execute();
    await expectConstraintViolation(
      db()
        .insertInto('transfers')
        .values(row({ id: 't2' }))
        .execute(),
      'unique',
      'sender_user_id',
    );
    // Another account's claim of the same hash is kept (pending) until the chain decides.
    await db()
      .insertInto('transfers')
      .values(row({ id: 't3', sender_user_id: 'u3' }))
      .execute();
    await db().updateTable('transfers').set({ status: 'confirmed' }).where('id', '=', 't1').execute();
    await expectConstraintViolation(
      db().updateTable('transfers').set({ status: 'failed' }).where('id', '=', 't3').execute(),
      'unique',
      'tx_hash',
    );
    await expectConstraintViolation(
      db()
        .insertInto('transfers')
        .values(row({ id: 't4', asset: 'dai' as never }))
        .execute(),
      'check',
      'asset',
    );
    expect(await db().selectFrom('transfers').select(['id', 'status']).orderBy('id').execute()).toEqual([
      { id: 't1', status: 'confirmed' },
      { id: 't3', status: 'pending' },
    ]);
  });

  it('puts every existing transfer back to pending, due at once: a status a browser reported is not believed', async () => {
    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    expect((await migrator.migrateTo(before0007)).error).toBeUndefined();
    await users('u1', 'u2', 'u3');
    const old = { ...row({ status: 'confirmed' }) } as Record<string, unknown>;
    for (const name of ['next_check_at', 'checked_at', 'claimed_until', 'missing_since']) delete old[name];
    await db()
      .insertInto('transfers')
      .values(old as never)
      .execute();
    await db()
      .insertInto('transfers')
      .values({
        ...old,
        id: 't2',
        tx_hash: `0x${'2'.repeat(64)}`,
        status: 'failed',
        created_at: '2029-01-01T00:00:00.000Z',
      } as never)
      .execute();
    await migrateToLatest(db());
    expect(
      await db()
        .selectFrom('transfers')
        .select([
          'id',
          'status',
          'next_check_at',
          'check_attempts',
          'checked_at',
          'claimed_until',
          'missing_since',
        ])
        .orderBy('id')
        .execute(),
    ).toEqual([
      {
        id: 't1',
        status: 'pending',
        next_check_at: at,
        check_attempts: 0,
        checked_at: null,
        claimed_until: null,
        missing_since: null,
      },
      {
        id: 't2',
        status: 'pending',
        next_check_at: '2029-01-01T00:00:00.000Z',
        check_attempts: 0,
        checked_at: null,
        claimed_until: null,
        missing_since: null,
      },
    ]);
    // Several accounts may now claim one hash.
    await db()
      .insertInto('transfers')
      .values(row({ id: 't5', sender_user_id: 'u3' }))
      .execute();
  });

  it('migrates down (one row per hash again, a settled one kept) and up again', async () => {
    await users('u1', 'u2', 'u3');
    await db()
      .insertInto('transfers')
      .values(row({ id: 'a', status: 'confirmed' }))
      .execute();
    await db()
      .insertInto('transfers')
      .values(row({ id: 'b', sender_user_id: 'u3' }))
      .execute();
    await db()
      .insertInto('transfers')
      .values(row({ id: 'c', tx_hash: `0x${'3'.repeat(64)}` }))
      .execute();
    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    const down = await migrator.migrateTo(before0007);
    expect(down.error).toBeUndefined();
    expect(down.results?.at(-1)).toMatchObject({ migrationName: '0007_transfer_checks', direction: 'Down' });
    expect(await db().selectFrom('transfers').select(['id', 'status']).orderBy('id').execute()).toEqual([
      { id: 'a', status: 'confirmed' },
      { id: 'c', status: 'pending' },
    ]);
    await migrateToLatest(db());
    expect(await db().selectFrom('transfers').select(['id', 'status']).orderBy('id').execute()).toEqual([
      { id: 'a', status: 'pending' },
      { id: 'c', status: 'pending' },
    ]);
  });
});

describe.each(DIALECTS)('the address squatter of old, after migrations 0005 and 0007, on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('stops showing the squatter as the sender of a real payment, and the real sender records it', async () => {
    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    expect((await migrator.migrateTo('0004_onramp')).error).toBeUndefined();
    const [aliceKey, bobKey] = await Promise.all([fundedActor(chain), fundedActor(chain)]);
    const hash = await aliceKey.sendNative(bobKey.address, 31_337n);
    // Before 0005 anyone could register any address: Mallory registered Alice's after Alice did, and
    // recorded Alice's payment to Bob as hers, "confirmed" by her own browser.
    const legacy = db() as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
    const people: [string, string, string | null, string][] = [
      ['alice', ALICE_PHONE, aliceKey.address, '2030-01-01T10:00:00.000Z'],
      ['mallory', MALLORY_PHONE, aliceKey.address, '2030-01-01T11:00:00.000Z'],
      ['bob', BOB_PHONE, bobKey.address, '2030-01-01T10:00:00.000Z'],
    ];
    for (const [id, phone, address, createdAt] of people) {
      await legacy.insertInto('users').values({ id, created_at: createdAt }).execute();
      await legacy
        .insertInto('identities')
        .values({ value: phone, kind: 'phone', user_id: id, created_at: createdAt })
        .execute();
      await legacy
        .insertInto('wallets')
        .values({
          user_id: id,
          address,
          auth_share_ciphertext: 'AA==',
          iv: 'AA==',
          key_version: 1,
          share_generation: 1,
          created_at: createdAt,
        })
        .execute();
    }
    await legacy
      .insertInto('transfers')
      .values({
        id: '00000000-0000-4000-8000-000000000001',
        sender_user_id: 'mallory',
        chain_id: LOCAL,
        tx_hash: hash,
        from_address: aliceKey.address,
        to_address: bobKey.address,
        asset: 'native',
        amount: '31337',
        recipient_user_id: 'bob',
        recipient_phone: null,
        status: 'confirmed',
        created_at: '2030-01-01T11:30:00.000Z',
        updated_at: '2030-01-01T11:30:00.000Z',
      })
      .execute();

    await migrateToLatest(db());
    const t = await createTestApp(db(), { config: localChainConfig(chain), deps: QUIET_TIMER });
    const bob = await t.signIn('sms', BOB_PHONE);
    expect((await listActivity(t, bob.token)).json().items).toEqual([]);

    const outcomes = await runDueTransferChecks({
      db: db(),
      chain: createChainReader(t.config),
      now: t.clock.now,
    });
    expect([...outcomes.values()]).toEqual([
      expect.objectContaining({ status: 'dropped', reason: 'not_sender' }),
    ]);
    const alice = await t.signIn('sms', ALICE_PHONE);
    const real = await recordTransfer(t, alice.token, native(hash, bobKey.address, 31_337n));
    expect(real.json()).toMatchObject({ status: 'confirmed', from: aliceKey.address });
    expect((await listActivity(t, bob.token)).json().items).toEqual([
      expect.objectContaining({ direction: 'received', txHash: hash, counterparty: { phone: '*3456' } }),
    ]);
  });
});
