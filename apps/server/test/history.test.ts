import { randomBytes, randomUUID } from 'node:crypto';
import { LOCAL_CHAIN_ID } from '@dial/core';
import type { Insertable } from 'kysely';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import type { CreditSource, TransfersTable, WalletCreditsTable } from '../src/db/database.js';
import { listActivity, type Person, personWithWallet, QUIET_TIMER } from './activityPeople.js';
import { unfundedActor } from './chainActors.js';
import { DIALECTS, dialectLabel, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';

// Issue 11 §2: the whole history. Dial transfers merged with the wallet's credits (faucet, on-ramp, outside
// transfers, balance changes), paged by an opaque keyset cursor, filtered by network, each entry listed once
// and only to its owner. The rows are written straight into the database here (the watcher and the routes
// that write them have their tests in chainWatch.test.ts).

const ALICE_PHONE = PHONE; // *3456
const BOB_PHONE = '+447400987654'; // *7654
const CAROL_PHONE = '+447400555111'; // *5111
const BASE = 8453;
const T0 = Date.parse('2030-01-01T00:00:00.000Z');

function hash(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}

function at(ms: number): string {
  return new Date(T0 + ms).toISOString();
}

function transferRow(
  sender: Person,
  recipient: Person | null,
  overrides: Partial<Insertable<TransfersTable>> = {},
): Insertable<TransfersTable> {
  const created = overrides.created_at ?? at(0);
  return {
    id: randomUUID(),
    sender_user_id: sender.userId,
    chain_id: LOCAL_CHAIN_ID,
    tx_hash: hash(),
    from_address: sender.address,
    to_address: recipient?.address ?? getAddress(unfundedActor().address),
    asset: 'native',
    amount: '1',
    recipient_user_id: recipient?.userId ?? null,
    recipient_phone: null,
    status: 'confirmed',
    created_at: created,
    updated_at: created,
    next_check_at: null,
    checked_at: null,
    claimed_until: null,
    missing_since: null,
    ...overrides,
  };
}

function creditRow(
  owner: Person,
  source: CreditSource,
  overrides: Partial<Insertable<WalletCreditsTable>> = {},
): Insertable<WalletCreditsTable> {
  const created = overrides.created_at ?? at(0);
  const txHash = source === 'balance' ? null : (overrides.tx_hash ?? hash());
  const chainId = overrides.chain_id ?? LOCAL_CHAIN_ID;
  return {
    id: randomUUID(),
    user_id: owner.userId,
    wallet_address: owner.address,
    chain_id: chainId,
    tx_hash: txHash,
    log_index: null,
    dedupe_key: `${chainId}:${txHash ?? `balance:${randomUUID()}`}:-1:${owner.address.toLowerCase()}`,
    source,
    asset: 'usdc',
    amount: '5000000',
    from_address: source === 'balance' ? null : getAddress(unfundedActor().address),
    block_number: 7,
    status: 'confirmed',
    onramp_session: null,
    created_at: created,
    updated_at: created,
    ...overrides,
  };
}

interface Entry {
  id: string;
  source: string;
  direction: string;
  chainId: number;
  createdAt: string;
  txHash: string | null;
}

describe.each(DIALECTS)('the history on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  async function people(t: TestApp) {
    const alice = await personWithWallet(t, db(), 'sms', ALICE_PHONE, unfundedActor().address);
    const bob = await personWithWallet(t, db(), 'sms', BOB_PHONE, unfundedActor().address);
    const carol = await personWithWallet(t, db(), 'sms', CAROL_PHONE, unfundedActor().address);
    return { alice, bob, carol };
  }

  async function insert(transfers: Insertable<TransfersTable>[], credits: Insertable<WalletCreditsTable>[]) {
    for (let start = 0; start < transfers.length; start += 250) {
      await db()
        .insertInto('transfers')
        .values(transfers.slice(start, start + 250))
        .execute();
    }
    for (let start = 0; start < credits.length; start += 250) {
      await db()
        .insertInto('wallet_credits')
        .values(credits.slice(start, start + 250))
        .execute();
    }
  }

  /** Every page of `person`'s history, following `nextCursor`. */
  async function allPages(t: TestApp, person: Person, query: Record<string, string> = {}) {
    const entries: Entry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await listActivity(t, person.token, {
        ...query,
        ...(cursor === null ? {} : { cursor }),
      });
      expect(response.statusCode).toBe(200);
      const body: { items: Entry[]; nextCursor: string | null } = response.json();
      entries.push(...body.items);
      cursor = body.nextCursor;
      pages += 1;
      if (pages > 1000) throw new Error('the cursor never ends');
    } while (cursor !== null);
    return { entries, pages };
  }

  /** Newest first, ties by id, as the API promises. */
  function ordered<T extends { created_at?: string; id?: string }>(rows: T[]): string[] {
    return [...rows]
      .sort((a, b) =>
        a.created_at === b.created_at
          ? (b.id ?? '').localeCompare(a.id ?? '')
          : (b.created_at ?? '').localeCompare(a.created_at ?? ''),
      )
      .map((row) => row.id!);
  }

  it('lists every kind of entry with its source, hash, block, status and the masked number of a Dial counterparty', async () => {
    const t = await createTestApp(db(), { deps: QUIET_TIMER });
    const { alice, bob } = await people(t);
    const sent = transferRow(alice, bob, { created_at: at(6), recipient_phone: BOB_PHONE });
    const received = transferRow(bob, alice, { created_at: at(5), asset: 'usdc', amount: '250000' });
    const faucet = creditRow(alice, 'faucet', { created_at: at(4), asset: 'native', amount: '10' });
    const onramp = creditRow(alice, 'onramp', { created_at: at(3), status: 'pending', block_number: null });
    const outside = creditRow(alice, 'outside', { created_at: at(2), chain_id: BASE, log_index: 3 });
    const balance = creditRow(alice, 'balance', { created_at: at(1), asset: 'native', block_number: 123 });
    await insert([sent, received], [faucet, onramp, outside, balance]);

    const response = await listActivity(t, alice.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      items: [
        {
          id: sent.id,
          source: 'dial',
          direction: 'sent',
          chainId: LOCAL_CHAIN_ID,
          txHash: sent.tx_hash,
          blockNumber: null,
          from: alice.address,
          to: bob.address,
          asset: 'native',
          amount: '1',
          status: 'confirmed',
          createdAt: at(6),
          counterparty: { phone: '*7654' },
        },
        expect.objectContaining({
          id: received.id,
          source: 'dial',
          direction: 'received',
          from: bob.address,
          to: alice.address,
          asset: 'usdc',
          amount: '250000',
          counterparty: { phone: '*7654' },
        }),
        {
          id: faucet.id,
          source: 'faucet',
          direction: 'received',
          chainId: LOCAL_CHAIN_ID,
          txHash: faucet.tx_hash,
          blockNumber: 7,
          from: faucet.from_address,
          to: alice.address,
          asset: 'native',
          amount: '10',
          status: 'confirmed',
          createdAt: at(4),
          counterparty: { phone: null },
        },
        expect.objectContaining({ id: onramp.id, source: 'onramp', status: 'pending', blockNumber: null }),
        expect.objectContaining({
          id: outside.id,
          source: 'outside',
          chainId: BASE,
          txHash: outside.tx_hash,
        }),
        expect.objectContaining({
          id: balance.id,
          source: 'balance',
          txHash: null,
          from: null,
          blockNumber: 123,
          to: alice.address,
        }),
      ],
      nextCursor: null,
    });
    for (const secret of [bob.userId, BOB_PHONE, alice.userId]) expect(response.body).not.toContain(secret);
  });

  it('never lists another user’s credits, nor a Dial transfer still pending to its recipient', async () => {
    const t = await createTestApp(db(), { deps: QUIET_TIMER });
    const { alice, bob, carol } = await people(t);
    const bobs = creditRow(bob, 'outside');
    const pendingToAlice = transferRow(bob, alice, { status: 'pending', created_at: at(1) });
    await insert([pendingToAlice], [bobs, creditRow(carol, 'faucet')]);

    expect((await listActivity(t, alice.token)).json()).toEqual({ items: [], nextCursor: null });
    expect((await listActivity(t, bob.token)).json().items.map((item: Entry) => item.id)).toEqual([
      pendingToAlice.id,
      bobs.id,
    ]);
  });

  it('lists a credit once, as the Dial transfer, when its transaction is a proven Dial transfer to the same user', async () => {
    const t = await createTestApp(db(), { deps: QUIET_TIMER });
    const { alice, bob } = await people(t);
    const proven = transferRow(bob, alice, { created_at: at(2) });
    const unproven = transferRow(bob, alice, { created_at: at(1), status: 'pending', next_check_at: at(0) });
    const foundProven = creditRow(alice, 'outside', { tx_hash: proven.tx_hash, created_at: at(3) });
    const foundUnproven = creditRow(alice, 'outside', { tx_hash: unproven.tx_hash, created_at: at(3) });
    // The same hash on another chain is another transaction.
    const otherChain = creditRow(alice, 'outside', {
      tx_hash: proven.tx_hash,
      chain_id: BASE,
      created_at: at(4),
    });
    await insert([proven, unproven], [foundProven, foundUnproven, otherChain]);

    const items: Entry[] = (await listActivity(t, alice.token)).json().items;
    expect(items.map((item) => [item.id, item.source])).toEqual([
      [otherChain.id, 'outside'],
      [foundUnproven.id, 'outside'],
      [proven.id, 'dial'],
    ]);
  });

  it('filters by network, and refuses a cursor it did not give', async () => {
    const t = await createTestApp(db(), { deps: QUIET_TIMER });
    const { alice, bob } = await people(t);
    const local = transferRow(alice, bob, { created_at: at(3) });
    const base = transferRow(alice, bob, { created_at: at(2), chain_id: BASE });
    const baseCredit = creditRow(alice, 'outside', { created_at: at(1), chain_id: BASE });
    const localCredit = creditRow(alice, 'faucet', { created_at: at(0) });
    await insert([local, base], [baseCredit, localCredit]);

    const ids = async (query: Record<string, string>) =>
      (await listActivity(t, alice.token, query)).json().items.map((item: Entry) => item.id);
    expect(await ids({ chainId: String(BASE) })).toEqual([base.id, baseCredit.id]);
    expect(await ids({ chainId: String(LOCAL_CHAIN_ID) })).toEqual([local.id, localCredit.id]);
    expect(await ids({ chainId: '1' })).toEqual([]);
    expect(await ids({})).toEqual([local.id, base.id, baseCredit.id, localCredit.id]);

    const forged = Buffer.from(`${at(0)}/not-a-uuid`).toString('base64url');
    expectError(await listActivity(t, alice.token, { cursor: forged }), 400, 'invalid_data');
  });

  it('gives pages of exactly the size asked, whatever it is, and a cursor only while more entries follow', async () => {
    const t = await createTestApp(db(), { deps: QUIET_TIMER });
    const { alice, bob } = await people(t);
    // 120 entries, more than the largest page: sent, received and credits, three to a millisecond.
    const transfers: Insertable<TransfersTable>[] = [];
    const credits: Insertable<WalletCreditsTable>[] = [];
    for (let i = 0; i < 120; i++) {
      const tick = { created_at: at(Math.floor(i / 3)) };
      if (i % 3 === 0) transfers.push(transferRow(alice, bob, tick));
      else if (i % 3 === 1) transfers.push(transferRow(bob, alice, tick));
      else credits.push(creditRow(alice, 'outside', tick));
    }
    await insert(transfers, credits);
    const expected = ordered([...transfers, ...credits]);

    // Page sizes on both sides of those the server reads in one statement (11, 21, 51 and 101 entries).
    for (const limit of [1, 9, 10, 11, 19, 20, 21, 37, 50, 51, 99, 100]) {
      const first = await listActivity(t, alice.token, { limit: String(limit) });
      expect(first.json().items.map((item: Entry) => item.id)).toEqual(expected.slice(0, limit));
      const { entries, pages } = await allPages(t, alice, { limit: String(limit) });
      expect(entries.map((entry) => entry.id)).toEqual(expected);
      expect(pages).toBe(Math.ceil(expected.length / limit));
    }
    // A page that holds all there is has no cursor.
    const { entries: few } = await allPages(t, bob, { limit: '100' });
    expect(few.length).toBe(80);
    expect((await listActivity(t, bob.token, { limit: '80' })).json().nextCursor).toBeNull();
    expect((await listActivity(t, bob.token, { limit: '79' })).json().nextCursor).not.toBeNull();
  }, 60_000);

  it('pages 5,000 transfers and 1,500 credits with many ties in created_at: every entry exactly once, in order, fast', async () => {
    const t = await createTestApp(db(), { deps: QUIET_TIMER });
    const { alice, bob, carol } = await people(t);
    const transfers: Insertable<TransfersTable>[] = [];
    const credits: Insertable<WalletCreditsTable>[] = [];
    // Seven entries per millisecond, across all three sources, on two chains.
    for (let i = 0; i < 5000; i++) {
      const tick = { created_at: at(Math.floor(i / 7)), chain_id: i % 3 === 0 ? BASE : LOCAL_CHAIN_ID };
      if (i % 5 === 0) transfers.push(transferRow(bob, alice, tick));
      else if (i % 11 === 0) transfers.push(transferRow(bob, alice, { ...tick, status: 'pending' }));
      else transfers.push(transferRow(alice, i % 2 === 0 ? bob : null, tick));
    }
    for (let i = 0; i < 1500; i++) {
      const tick = {
        created_at: at(Math.floor((i * 7) / 2) % 714),
        chain_id: i % 2 === 0 ? BASE : LOCAL_CHAIN_ID,
      };
      credits.push(creditRow(i % 10 === 0 ? carol : alice, i % 4 === 0 ? 'faucet' : 'outside', tick));
    }
    await insert(transfers, credits);

    const visible = [
      ...transfers.filter(
        (row) =>
          row.sender_user_id === alice.userId ||
          (row.recipient_user_id === alice.userId && row.status !== 'pending'),
      ),
      ...credits.filter((row) => row.user_id === alice.userId),
    ];
    const expected = ordered(visible);
    expect(expected.length).toBeGreaterThan(5000);

    const started = performance.now();
    const first = await listActivity(t, alice.token, { limit: '50' });
    const firstPageMs = performance.now() - started;
    expect(first.json().items.map((item: Entry) => item.id)).toEqual(expected.slice(0, 50));

    const { entries, pages } = await allPages(t, alice, { limit: '100' });
    expect(entries.map((entry) => entry.id)).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 100));

    const onBase = ordered(visible.filter((row) => row.chain_id === BASE));
    const filtered = await allPages(t, alice, { limit: '37', chainId: String(BASE) });
    expect(filtered.entries.map((entry) => entry.id)).toEqual(onBase);

    // Each page reads limit + 1 rows per source through its index: far below the time to read them all.
    console.info(
      `${dialectLabel(dialect)}: first page of ${expected.length} entries in ${firstPageMs.toFixed(0)} ms`,
    );
    expect(firstPageMs).toBeLessThan(2000);
  }, 120_000);
});
