import { LOCAL_CHAIN_ID } from '@dial/core';
import { DEV_FAUCET_ADDRESS, type DevChain, sendFromFaucet, startDevChain } from '@dial/devchain';
import type { LightMyRequestResponse } from 'fastify';
import { type Address, getAddress, type Hex, parseEther, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCredit } from '../src/activity/creditStore.js';
import { recordSentCredit } from '../src/activity/recordSentCredit.js';
import { chainClients } from '../src/chain/chainReader.js';
import { watchChains } from '../src/chainWatch/chainWatch.js';
import type { ChainWatchDeps } from '../src/chainWatch/chainWatchDeps.js';
import type { WatchedChain } from '../src/chainWatch/watchedChains.js';
import type { AppConfig } from '../src/config/index.js';
import {
  listActivity,
  localChainConfig,
  type Person,
  personWithWallet,
  QUIET_TIMER,
  recordTransfer,
} from './activityPeople.js';
import { fundedActor, mineBlock, unfundedActor } from './chainActors.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { createTestApp, ORIGIN, PHONE, SANDBOX_ONRAMP, type TestApp } from './testApp.js';

// Issue 11 §1–2: money that reaches a wallet other than by a Dial send shows up in the history: USDC
// `Transfer` logs and native value from any address, found by the chain watcher on the real local chain;
// the faucet's and the sandbox on-ramp's credits, recorded by the routes that sent them. Each is one entry
// however many finders see it, and each new or settled one is announced on the owner's wallet stream.

const ALICE_PHONE = PHONE;
const BOB_PHONE = '+447400987654';
const LOCAL = LOCAL_CHAIN_ID;
const BLOCKS: WatchedChain = { chainId: LOCAL, mode: 'blocks' };
const LOGS: WatchedChain = { chainId: LOCAL, mode: 'logs' };

let chain: DevChain;
beforeAll(async () => {
  chain = await startDevChain({ port: 0 });
});
afterAll(async () => {
  await chain.close();
});

interface Entry {
  id: string;
  source: string;
  txHash: string | null;
  from: string | null;
  to: string;
  asset: string;
  amount: string;
  status: string;
  blockNumber: number | null;
}

describe.each(DIALECTS)('the chain watcher and the credits on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  const chainApp = (config: Partial<AppConfig> = {}) =>
    createTestApp(db(), { config: { ...localChainConfig(chain), ...config }, deps: QUIET_TIMER });

  /** A watcher as another server would run it: the same database, its own RPC clients. */
  function watcher(t: TestApp, rpcUrl = chain.url): ChainWatchDeps {
    return {
      db: db(),
      now: t.clock.now,
      client: chainClients({ rpcUrls: {}, localChain: { start: false, port: 0, rpcUrl } }, 5_000),
      usdcAddress: () => chain.usdc,
    };
  }

  async function entries(t: TestApp, person: Person): Promise<Entry[]> {
    const response = await listActivity(t, person.token);
    expect(response.statusCode).toBe(200);
    return response.json().items;
  }

  async function events(person: Person) {
    const rows = await db()
      .selectFrom('wallet_events')
      .select('payload')
      .where('user_id', '=', person.userId)
      .orderBy('seq')
      .execute();
    return rows.map((row) => JSON.parse(row.payload));
  }

  async function alice(t: TestApp) {
    return personWithWallet(t, db(), 'sms', ALICE_PHONE, unfundedActor().address);
  }

  it('records an outside USDC transfer from a plain local-chain account, once, and announces it to its owner only', async () => {
    const t = await chainApp();
    const person = await alice(t);
    const bob = await personWithWallet(t, db(), 'sms', BOB_PHONE, unfundedActor().address);
    const stranger = await fundedActor(chain, { usdc: 5_000_000n });
    const deps = watcher(t);
    await watchChains(deps, [BLOCKS]);

    const hash = await stranger.sendUsdc(person.address as Address, 1_234_567n);
    const outcomes = await watchChains(deps, [BLOCKS]);
    expect(outcomes.get(LOCAL)).toMatchObject({ status: 'read', credits: 1 });

    const items = await entries(t, person);
    expect(items).toEqual([
      {
        id: expect.any(String),
        source: 'outside',
        direction: 'received',
        chainId: LOCAL,
        txHash: hash,
        blockNumber: expect.any(Number),
        from: stranger.address,
        to: person.address,
        asset: 'usdc',
        amount: '1234567',
        status: 'confirmed',
        createdAt: t.clock.now().toISOString(),
        counterparty: { phone: null },
      },
    ]);
    expect(await events(person)).toEqual([
      { kind: 'activity', entryId: items[0]!.id, chainId: LOCAL, change: 'added', direction: 'received' },
    ]);
    // Read again (a second tick, another server after a lost claim): still one entry, nothing announced.
    await db().updateTable('chain_watch').set({ next_block: 0 }).execute();
    await watchChains(deps, [BLOCKS]);
    expect(await entries(t, person)).toHaveLength(1);
    expect(await events(person)).toHaveLength(1);
    expect(await entries(t, bob)).toEqual([]);
    expect(await events(bob)).toEqual([]);
  });

  it('records native value from outside, read from the blocks, and not a reverted transfer nor one to a stranger', async () => {
    const t = await chainApp();
    const person = await alice(t);
    const stranger = await fundedActor(chain, { usdc: 1_000n });
    const deps = watcher(t);
    await watchChains(deps, [BLOCKS]);

    const hash = await stranger.sendNative(person.address as Address, 777n);
    await stranger.sendNative(unfundedActor().address, 5n);
    // More USDC than it has, sent anyway: the transaction reverts, no log, no credit.
    await stranger.sendUsdc(person.address as Address, 10_000n, { gas: 100_000n });
    await watchChains(deps, [BLOCKS]);

    expect(await entries(t, person)).toEqual([
      expect.objectContaining({
        source: 'outside',
        txHash: hash,
        from: stranger.address,
        asset: 'native',
        amount: '777',
        status: 'confirmed',
      }),
    ]);
  });

  it('starts a new chain at its latest block, not at block 0', async () => {
    const t = await chainApp();
    const person = await alice(t);
    const stranger = await fundedActor(chain);
    await stranger.sendNative(person.address as Address, 1n);
    await mineBlock(chain);
    const head = await watcher(t).client(LOCAL).getBlockNumber({ cacheTime: 0 });

    const outcomes = await watchChains(watcher(t), [BLOCKS]);
    expect(outcomes.get(LOCAL)).toEqual({ status: 'read', from: head, to: head, credits: 0 });
    expect(await entries(t, person)).toEqual([]);
    const cursor = await db().selectFrom('chain_watch').selectAll().executeTakeFirstOrThrow();
    expect({
      chain: Number(cursor.chain_id),
      next: Number(cursor.next_block),
      claim: cursor.claimed_until,
    }).toEqual({ chain: LOCAL, next: Number(head) + 1, claim: null });
  });

  it('shares the chain between two watchers on one database: no range read twice, no credit counted twice', async () => {
    const t = await chainApp();
    const person = await alice(t);
    const bob = await personWithWallet(t, db(), 'sms', BOB_PHONE, unfundedActor().address);
    const stranger = await fundedActor(chain, { usdc: 10_000n });
    const [one, two] = [watcher(t), watcher(t)];
    await watchChains(one, [BLOCKS]);

    const ranges: [bigint, bigint][] = [];
    for (let round = 0; round < 3; round++) {
      await stranger.sendUsdc(person.address as Address, BigInt(100 + round));
      await stranger.sendNative(bob.address as Address, BigInt(200 + round));
      const outcomes = await Promise.all([watchChains(one, [BLOCKS]), watchChains(two, [BLOCKS])]);
      for (const outcome of outcomes.map((map) => map.get(LOCAL)!)) {
        if (outcome.status === 'read') ranges.push([outcome.from, outcome.to]);
        else expect(outcome.status).toBe('skipped');
      }
      // A tick that skipped leaves the range to the next one.
      await watchChains(two, [BLOCKS]);
    }
    ranges.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBeGreaterThan(ranges[i - 1]![1]);

    expect((await entries(t, person)).map((entry) => entry.amount).sort()).toEqual(['100', '101', '102']);
    expect((await entries(t, bob)).map((entry) => entry.amount).sort()).toEqual(['200', '201', '202']);
    expect(await events(person)).toHaveLength(3);
    expect(await db().selectFrom('wallet_credits').select('id').execute()).toHaveLength(6);
  });

  it('in logs mode, records native value from outside as a balance change with its block, and not a Dial transfer it knows', async () => {
    const t = await chainApp();
    const person = await alice(t);
    const bobKey = await fundedActor(chain);
    const bob = await personWithWallet(t, db(), 'sms', BOB_PHONE, bobKey.address);
    const stranger = await fundedActor(chain, { usdc: 1_000n });
    const deps = watcher(t);
    await watchChains(deps, [LOGS]);

    await stranger.sendNative(person.address as Address, 4_000n);
    const usdcHash = await stranger.sendUsdc(person.address as Address, 300n);
    t.clock.advance(1000);
    const head = await deps.client(LOCAL).getBlockNumber({ cacheTime: 0 });
    await watchChains(deps, [LOGS]);
    const listed = await entries(t, person);
    expect([...listed].sort((a, b) => (a.source < b.source ? -1 : 1))).toEqual([
      expect.objectContaining({
        source: 'balance',
        txHash: null,
        from: null,
        to: person.address,
        asset: 'native',
        amount: '4000',
        status: 'confirmed',
        blockNumber: Number(head),
      }),
      expect.objectContaining({ source: 'outside', txHash: usdcHash, asset: 'usdc', amount: '300' }),
    ]);

    // Bob sends through Dial: the chain proves it, so the rise is explained.
    const txHash = await bobKey.sendNative(person.address as Address, 9_000n);
    const recorded = await recordTransfer(t, bob.token, {
      chainId: LOCAL,
      txHash,
      to: person.address,
      asset: 'native',
      amount: '9000',
    });
    expect(recorded.json().status).toBe('confirmed');
    await watchChains(deps, [LOGS]);
    expect((await entries(t, person)).map((entry) => entry.source).sort()).toEqual([
      'balance',
      'dial',
      'outside',
    ]);
  });

  it('records the faucet’s test funds as "faucet", confirmed with its hash, and the watcher finding them adds nothing', async () => {
    const t = await chainApp();
    const person = await alice(t);
    const deps = watcher(t);
    await watchChains(deps, [BLOCKS]);

    const usdc = await t.post('/api/dev/faucet', { asset: 'usdc' }, { token: person.token });
    const eth = await t.post('/api/dev/faucet', {}, { token: person.token });
    expect([usdc.statusCode, eth.statusCode]).toEqual([200, 200]);
    const expected = [
      expect.objectContaining({
        source: 'faucet',
        txHash: eth.json().txHash,
        from: DEV_FAUCET_ADDRESS,
        asset: 'native',
        amount: parseEther('1').toString(),
        status: 'confirmed',
        blockNumber: expect.any(Number),
      }),
      expect.objectContaining({
        source: 'faucet',
        txHash: usdc.json().txHash,
        from: zeroAddress,
        asset: 'usdc',
        amount: '100000000',
        status: 'confirmed',
      }),
    ];
    const listed = await entries(t, person);
    expect([...listed].sort((a, b) => (a.asset < b.asset ? -1 : 1))).toEqual(expected);
    expect((await events(person)).map((event) => event.change)).toEqual(['added', 'added']);

    await watchChains(deps, [BLOCKS]);
    expect(await entries(t, person)).toEqual(listed);
    expect(await events(person)).toHaveLength(2);
  });

  it('labels money the watcher found first with the faucet once the faucet records it', async () => {
    const t = await chainApp();
    const person = await alice(t);
    const deps = watcher(t);
    await watchChains(deps, [BLOCKS]);
    const hash = await sendFromFaucet({
      rpcUrl: chain.url,
      chainId: LOCAL,
      to: person.address as Address,
      value: 12_345n,
    });
    await watchChains(deps, [BLOCKS]);
    expect((await entries(t, person)).map((entry) => entry.source)).toEqual(['outside']);

    await recordSentCredit(
      {
        db: db(),
        now: t.clock.now,
        chain: { usdcAddress: () => chain.usdc, readTransaction: () => never() },
      },
      deps.client,
      {
        userId: person.userId,
        wallet: person.address as Address,
        chainId: LOCAL,
        txHash: hash,
        source: 'faucet',
        asset: 'native',
        amount: 12_345n,
      },
      t.app.log,
    );
    expect(await entries(t, person)).toEqual([
      expect.objectContaining({ source: 'faucet', txHash: hash, amount: '12345' }),
    ]);
  });

  it('records money it sent while the chain could not be read as pending, and settles it from the receipt later', async () => {
    const t = await chainApp();
    const person = await alice(t);
    const hash = await sendFromFaucet({
      rpcUrl: chain.url,
      chainId: LOCAL,
      to: person.address as Address,
      value: 5n,
    });
    await recordSentCredit(
      {
        db: db(),
        now: t.clock.now,
        chain: { usdcAddress: () => chain.usdc, readTransaction: () => never() },
      },
      watcher(t, 'http://127.0.0.1:9').client,
      {
        userId: person.userId,
        wallet: person.address as Address,
        chainId: LOCAL,
        txHash: hash,
        source: 'faucet',
        asset: 'native',
        amount: 5n,
      },
      { ...t.app.log, warn: () => undefined } as never,
    );
    expect(await entries(t, person)).toEqual([
      expect.objectContaining({
        source: 'faucet',
        txHash: hash,
        from: null,
        status: 'pending',
        blockNumber: null,
      }),
    ]);

    await watchChains(watcher(t), [BLOCKS]);
    const [entry] = await entries(t, person);
    expect(entry).toMatchObject({ source: 'faucet', status: 'confirmed', blockNumber: expect.any(Number) });
    expect((await events(person)).map((event) => event.change)).toEqual(['added', 'settled']);
  });

  it('believes no client: a credit exists only from the chain or the server’s own sends, never from a request', async () => {
    const t = await chainApp();
    const person = await alice(t);
    // Nothing in the API writes a credit: an attacker's "I received" has nowhere to go.
    for (const body of [
      { source: 'outside', chainId: LOCAL, txHash: `0x${'1'.repeat(64)}`, asset: 'usdc', amount: '1' },
    ]) {
      const response = await t.post('/api/activity', body, { token: person.token });
      expect(response.statusCode).toBe(400);
    }
    // A transaction the chain does not have is never found by the watcher.
    await watchChains(watcher(t), [BLOCKS]);
    expect(await entries(t, person)).toEqual([]);
    // recordCredit dedupes on the key: the same money recorded twice is one row.
    const credit = {
      userId: person.userId,
      wallet: person.address,
      chainId: LOCAL,
      txHash: `0x${'2'.repeat(64)}`,
      logIndex: 0,
      source: 'outside' as const,
      asset: 'usdc' as const,
      amount: '1',
      from: getAddress(unfundedActor().address),
      blockNumber: 1n,
      status: 'confirmed' as const,
    };
    const first = await recordCredit({ db: db(), now: t.clock.now }, credit);
    const second = await recordCredit({ db: db(), now: t.clock.now }, credit);
    expect([first.change, second.change, second.id]).toEqual(['added', null, first.id]);
  });

  describe('the sandbox on-ramp', () => {
    const sandboxApp = () => chainApp({ onramp: SANDBOX_ONRAMP });

    function pay(t: TestApp, fields: Record<string, string>): Promise<LightMyRequestResponse> {
      return t.app.inject({
        method: 'POST',
        url: '/onramp/sandbox/pay',
        headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });
    }

    it('records a purchase as "onramp", confirmed with its hash, linked to its session', async () => {
      const t = await sandboxApp();
      const person = await alice(t);
      const session = await t.post(
        '/api/onramp/session',
        { asset: 'USDC', network: 'base', amount: '25', experience: 'buy' },
        { token: person.token },
      );
      const token = new URL(session.json().url).searchParams.get('sessionToken')!;
      const paid = await pay(t, { token, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' });
      expect(paid.statusCode).toBe(303);

      const [entry, ...rest] = await entries(t, person);
      expect(rest).toEqual([]);
      expect(entry).toMatchObject({
        source: 'onramp',
        asset: 'usdc',
        amount: '25000000',
        status: 'confirmed',
        to: person.address,
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      const row = await db().selectFrom('wallet_credits').select('onramp_session').executeTakeFirstOrThrow();
      const sessionRow = await db()
        .selectFrom('onramp_sessions')
        .select('token_hash')
        .executeTakeFirstOrThrow();
      expect(row.onramp_session).toBe(sessionRow.token_hash);
      expect(await events(person)).toEqual([
        { kind: 'activity', entryId: entry!.id, chainId: LOCAL, change: 'added', direction: 'received' },
      ]);
    });
  });
});

function never(): never {
  throw new Error('not used');
}

export type { Hex };
