import { randomBytes } from 'node:crypto';
import { ERROR_CATALOGUE, encodeShare, SHARE_LENGTH } from '@dial/core';
import type { LightMyRequestResponse } from 'fastify';
import { Migrator } from 'kysely/migration';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_LIMITS } from '../src/activity/activityLimits.js';
import { SESSION_COOKIE } from '../src/auth/sessions.js';
import { migrateToLatest } from '../src/db/migrateToLatest.js';
import { migrationProvider } from '../src/db/migrations/index.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { createTestApp, ORIGIN, PHONE, type TestApp } from './testApp.js';

const ALICE_PHONE = PHONE; // +447400123456, masked *3456
const BOB_PHONE = '+447400987654'; // masked *7654
const ALICE_ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const BOB_ADDRESS = getAddress('0x00000000000000000000000000000000000000b0');
const CAROL_ADDRESS = getAddress('0x00000000000000000000000000000000000000c0');
const STRANGER_ADDRESS = getAddress('0x00000000000000000000000000000000000000ee');
const BASE = 8453;
const ITEM_KEYS = [
  'amount',
  'asset',
  'chainId',
  'counterparty',
  'createdAt',
  'direction',
  'from',
  'id',
  'status',
  'to',
  'txHash',
];
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Person {
  token: string;
  userId: string;
}

function hashOf(n: number): string {
  return `0x${n.toString(16).padStart(64, '0')}`;
}

/** Signs in (up) and registers a wallet at `address`. */
async function personWithWallet(
  t: TestApp,
  channel: 'sms' | 'email',
  to: string,
  address: string,
): Promise<Person> {
  const { token, response } = await t.signIn(channel, to);
  const authShare = encodeShare(new Uint8Array(randomBytes(SHARE_LENGTH)));
  expect((await t.post('/api/wallet', { address, authShare }, { token })).statusCode).toBe(201);
  return { token, userId: response.json().user.id };
}

function transfer(overrides: Record<string, unknown> = {}) {
  return {
    chainId: BASE,
    txHash: hashOf(1),
    to: BOB_ADDRESS,
    asset: 'usdc',
    amount: '2500000',
    ...overrides,
  };
}

function record(t: TestApp, token: string | undefined, body: unknown): Promise<LightMyRequestResponse> {
  return t.post('/api/activity', body, token === undefined ? {} : { token });
}

function patch(t: TestApp, token: string | undefined, id: string, body: unknown) {
  return t.app.inject({
    method: 'PATCH',
    url: `/api/activity/${id}`,
    headers: { origin: ORIGIN, ...(token === undefined ? {} : { cookie: `${SESSION_COOKIE}=${token}` }) },
    payload: body as object,
  });
}

function list(t: TestApp, token: string | undefined, query: Record<string, string> = {}) {
  const url = new URL('/api/activity', 'http://localhost');
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return t.get(`${url.pathname}${url.search}`, token === undefined ? {} : { token });
}

function expectError(response: LightMyRequestResponse, status: number, code: keyof typeof ERROR_CATALOGUE) {
  expect(response.statusCode).toBe(status);
  expect(response.json()).toEqual({ error: { code, message: ERROR_CATALOGUE[code].message } });
}

describe.each(DIALECTS)('activity on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  /** Alice (phone) and Bob (phone), both with wallets. */
  async function aliceAndBob(t: TestApp): Promise<{ alice: Person; bob: Person }> {
    const alice = await personWithWallet(t, 'sms', ALICE_PHONE, ALICE_ADDRESS);
    const bob = await personWithWallet(t, 'sms', BOB_PHONE, BOB_ADDRESS);
    return { alice, bob };
  }

  it('records a sent transfer as pending: 201 with exactly the item, to the Dial user whose wallet it is', async () => {
    const t = await createTestApp(db());
    const { alice, bob } = await aliceAndBob(t);
    const hash = `0x${'AB'.repeat(32)}`;
    const response = await record(
      t,
      alice.token,
      transfer({
        txHash: hash,
        to: BOB_ADDRESS.toLowerCase(),
        amount: '0002500000',
        recipientPhone: BOB_PHONE,
      }),
    );
    expect(response.statusCode).toBe(201);
    const item = response.json();
    expect(item).toEqual({
      id: expect.stringMatching(UUID_PATTERN),
      direction: 'sent',
      chainId: BASE,
      txHash: hash.toLowerCase(),
      from: ALICE_ADDRESS,
      to: BOB_ADDRESS,
      asset: 'usdc',
      amount: '2500000',
      status: 'pending',
      createdAt: t.clock.now().toISOString(),
      counterparty: { phone: '*7654' },
    });
    const row = await db().selectFrom('transfers').selectAll().executeTakeFirstOrThrow();
    expect(row).toEqual({
      id: item.id,
      sender_user_id: alice.userId,
      chain_id: BASE,
      tx_hash: hash.toLowerCase(),
      from_address: ALICE_ADDRESS,
      to_address: BOB_ADDRESS,
      asset: 'usdc',
      amount: '2500000',
      recipient_user_id: bob.userId,
      recipient_phone: BOB_PHONE,
      status: 'pending',
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
  });

  it('lists a transfer as sent to its sender and as received, with the sender’s masked number, to its recipient', async () => {
    const t = await createTestApp(db());
    const { alice, bob } = await aliceAndBob(t);
    const created = (await record(t, alice.token, transfer({ asset: 'native', amount: '10' }))).json();
    const common = {
      id: created.id,
      chainId: BASE,
      txHash: hashOf(1),
      from: ALICE_ADDRESS,
      to: BOB_ADDRESS,
      asset: 'native',
      amount: '10',
      status: 'pending',
      createdAt: '2030-01-01T12:00:00.000Z',
    };

    const sent = await list(t, alice.token);
    expect(sent.statusCode).toBe(200);
    // No recipientPhone was given: the recipient user's own number, masked.
    expect(sent.json()).toEqual({
      items: [{ ...common, direction: 'sent', counterparty: { phone: '*7654' } }],
      nextBefore: null,
    });
    const received = await list(t, bob.token);
    expect(received.json()).toEqual({
      items: [{ ...common, direction: 'received', counterparty: { phone: '*3456' } }],
      nextBefore: null,
    });
    for (const body of [sent.body, received.body]) {
      for (const secret of [alice.userId, bob.userId, ALICE_PHONE, BOB_PHONE, '7400']) {
        expect(body).not.toContain(secret);
      }
    }
  });

  it('shows no e-mail address or user id: an e-mail sender has no number to show', async () => {
    const t = await createTestApp(db());
    const carol = await personWithWallet(t, 'email', 'carol@example.com', CAROL_ADDRESS);
    const bob = await personWithWallet(t, 'sms', BOB_PHONE, BOB_ADDRESS);
    await record(t, carol.token, transfer());
    t.clock.advance(1000);
    await record(t, bob.token, transfer({ txHash: hashOf(2), to: CAROL_ADDRESS }));

    const received = await list(t, bob.token);
    expect(received.json().items).toEqual([
      expect.objectContaining({ direction: 'sent', to: CAROL_ADDRESS, counterparty: { phone: null } }),
      expect.objectContaining({ direction: 'received', from: CAROL_ADDRESS, counterparty: { phone: null } }),
    ]);
    const carolList = await list(t, carol.token);
    expect(carolList.json().items).toEqual([
      expect.objectContaining({ direction: 'received', from: BOB_ADDRESS, counterparty: { phone: '*7654' } }),
      expect.objectContaining({ direction: 'sent', to: BOB_ADDRESS, counterparty: { phone: '*7654' } }),
    ]);
    for (const response of [received, carolList]) {
      for (const item of response.json().items) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
    }
    for (const body of [received.body, carolList.body]) {
      for (const secret of ['carol@example.com', 'example.com', carol.userId, bob.userId, BOB_PHONE]) {
        expect(body).not.toContain(secret);
      }
    }
  });

  it('lists newest first and pages with before and nextBefore', async () => {
    const t = await createTestApp(db());
    const { alice, bob } = await aliceAndBob(t);
    const times: string[] = [];
    for (let i = 1; i <= 5; i++) {
      // Alice sends 1, 3, 5; Bob sends 2 and 4 to Alice.
      const sender = i % 2 === 1 ? alice : bob;
      const to = i % 2 === 1 ? BOB_ADDRESS : ALICE_ADDRESS;
      expect((await record(t, sender.token, transfer({ txHash: hashOf(i), to }))).statusCode).toBe(201);
      times.push(t.clock.now().toISOString());
      t.clock.advance(60_000);
    }
    const summary = (body: {
      items: { txHash: string; direction: string }[];
      nextBefore: string | null;
    }) => ({
      items: body.items.map((item) => `${item.txHash.slice(-1)} ${item.direction}`),
      nextBefore: body.nextBefore,
    });

    expect(summary((await list(t, alice.token)).json())).toEqual({
      items: ['5 sent', '4 received', '3 sent', '2 received', '1 sent'],
      nextBefore: null,
    });
    const first = (await list(t, alice.token, { limit: '2' })).json();
    expect(summary(first)).toEqual({ items: ['5 sent', '4 received'], nextBefore: times[3] });
    const second = (await list(t, alice.token, { limit: '2', before: first.nextBefore })).json();
    expect(summary(second)).toEqual({ items: ['3 sent', '2 received'], nextBefore: times[1] });
    const third = (await list(t, alice.token, { limit: '2', before: second.nextBefore })).json();
    expect(summary(third)).toEqual({ items: ['1 sent'], nextBefore: null });
    // Exactly a full last page: no further cursor.
    expect(summary((await list(t, bob.token, { limit: '5' })).json()).nextBefore).toBeNull();
    expect(summary((await list(t, alice.token, { limit: '5' })).json()).nextBefore).toBeNull();
  });

  it('does not skip transfers that share the last item’s millisecond: the page takes them all', async () => {
    const t = await createTestApp(db());
    const { alice } = await aliceAndBob(t);
    await record(t, alice.token, transfer({ txHash: hashOf(1) }));
    t.clock.advance(1000);
    for (const n of [2, 3, 4]) await record(t, alice.token, transfer({ txHash: hashOf(n) }));
    const tiedAt = t.clock.now().toISOString();

    const first = (await list(t, alice.token, { limit: '2' })).json();
    expect(first.items.map((item: { txHash: string }) => item.txHash).sort()).toEqual(
      [hashOf(2), hashOf(3), hashOf(4)].sort(),
    );
    expect(first.nextBefore).toBe(tiedAt);
    const second = (await list(t, alice.token, { limit: '2', before: first.nextBefore })).json();
    expect(second.items.map((item: { txHash: string }) => item.txHash)).toEqual([hashOf(1)]);
    expect(second.nextBefore).toBeNull();

    const all = (await list(t, alice.token, { limit: '3' })).json();
    expect(all.items).toHaveLength(3);
    expect(all.nextBefore).toBe(tiedAt);
  });

  it('lets the sender set the final status, once; retrying the same status changes nothing', async () => {
    const t = await createTestApp(db());
    const { alice, bob } = await aliceAndBob(t);
    const created = (await record(t, alice.token, transfer())).json();
    t.clock.advance(5000);
    const confirmed = await patch(t, alice.token, created.id, { status: 'confirmed' });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ ...created, status: 'confirmed' });
    const row = await db().selectFrom('transfers').select(['status', 'updated_at']).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'confirmed', updated_at: t.clock.now().toISOString() });

    t.clock.advance(5000);
    const again = await patch(t, alice.token, created.id, { status: 'confirmed' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...created, status: 'confirmed' });
    const flipped = await patch(t, alice.token, created.id, { status: 'failed' });
    expect(flipped.statusCode).toBe(400);
    expect(flipped.json().error.code).toBe('invalid_data');
    expect(flipped.json().error.message).toBe(
      'This transfer is already confirmed; its status cannot change.',
    );
    expect(
      await db().selectFrom('transfers').select(['status', 'updated_at']).executeTakeFirstOrThrow(),
    ).toEqual(row);
    expect((await list(t, bob.token)).json().items[0]).toMatchObject({
      direction: 'received',
      status: 'confirmed',
    });
  });

  it('records a failed transaction', async () => {
    const t = await createTestApp(db());
    const { alice } = await aliceAndBob(t);
    const created = (await record(t, alice.token, transfer())).json();
    const failed = await patch(t, alice.token, created.id, { status: 'failed' });
    expect(failed.json()).toEqual({ ...created, status: 'failed' });
  });

  it('refuses a status other than confirmed or failed, and a malformed id, with 400 invalid_data', async () => {
    const t = await createTestApp(db());
    const { alice } = await aliceAndBob(t);
    const created = (await record(t, alice.token, transfer())).json();
    for (const body of [{ status: 'pending' }, { status: 'done' }, {}, { status: 'confirmed', extra: 1 }]) {
      expectError(await patch(t, alice.token, created.id, body), 400, 'invalid_data');
    }
    expectError(await patch(t, alice.token, 'x'.repeat(65), { status: 'confirmed' }), 400, 'invalid_data');
  });

  it('hides a transfer from everyone but its sender and recipient: others can neither see nor update it', async () => {
    const t = await createTestApp(db());
    const { alice, bob } = await aliceAndBob(t);
    const carol = await personWithWallet(t, 'email', 'carol@example.com', CAROL_ADDRESS);
    const created = (await record(t, alice.token, transfer())).json();

    expect((await list(t, carol.token)).json()).toEqual({ items: [], nextBefore: null });
    expectError(await patch(t, carol.token, created.id, { status: 'failed' }), 404, 'not_found');
    // The recipient sees it but cannot update it either.
    expectError(await patch(t, bob.token, created.id, { status: 'failed' }), 404, 'not_found');
    expectError(
      await patch(t, alice.token, '00000000-0000-4000-8000-000000000000', { status: 'failed' }),
      404,
      'not_found',
    );
    expect((await db().selectFrom('transfers').select('status').executeTakeFirstOrThrow()).status).toBe(
      'pending',
    );
  });

  it('lists a transfer to an address of no Dial user to its sender only', async () => {
    const t = await createTestApp(db());
    const { alice, bob } = await aliceAndBob(t);
    const created = await record(
      t,
      alice.token,
      transfer({ to: STRANGER_ADDRESS, recipientPhone: '+14155552671' }),
    );
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ to: STRANGER_ADDRESS, counterparty: { phone: '*2671' } });
    expect(
      (await db().selectFrom('transfers').select('recipient_user_id').executeTakeFirstOrThrow())
        .recipient_user_id,
    ).toBeNull();
    expect((await list(t, alice.token)).json().items).toEqual([created.json()]);
    expect((await list(t, bob.token)).json()).toEqual({ items: [], nextBefore: null });
  });

  it('lists a transfer to one’s own wallet once, as sent', async () => {
    const t = await createTestApp(db());
    const { alice } = await aliceAndBob(t);
    await record(t, alice.token, transfer({ to: ALICE_ADDRESS }));
    const items = (await list(t, alice.token)).json().items;
    expect(items).toEqual([expect.objectContaining({ direction: 'sent', counterparty: { phone: '*3456' } })]);
  });

  it('gives the stored transfer back, unchanged, when its sender records it again (a retry)', async () => {
    const t = await createTestApp(db());
    const { alice } = await aliceAndBob(t);
    const first = await record(t, alice.token, transfer({ txHash: hashOf(0xabc) }));
    expect(first.statusCode).toBe(201);
    t.clock.advance(1000);
    const retry = await record(
      t,
      alice.token,
      transfer({ txHash: hashOf(0xabc).toUpperCase().replace('0X', '0x'), amount: '1' }),
    );
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(await db().selectFrom('transfers').select('id').execute()).toHaveLength(1);
  });

  it('refuses a transaction another user already recorded with 400 invalid_data', async () => {
    const t = await createTestApp(db());
    const { alice, bob } = await aliceAndBob(t);
    const first = await record(t, alice.token, transfer());
    const copy = await record(t, bob.token, transfer({ to: ALICE_ADDRESS }));
    expect(copy.statusCode).toBe(400);
    expect(copy.json()).toEqual({
      error: { code: 'invalid_data', message: 'This transaction was already recorded by another account.' },
    });
    // The same hash on another chain is another transaction.
    expect((await record(t, bob.token, transfer({ chainId: 137, to: ALICE_ADDRESS }))).statusCode).toBe(201);
    expect((await list(t, bob.token)).json().items.map((item: { id: string }) => item.id)).toContain(
      first.json().id,
    );
  });

  it.each([
    ['a short hash', { txHash: `0x${'a'.repeat(63)}` }],
    ['a hash without 0x', { txHash: 'a'.repeat(64) }],
    ['a hash with non-hex digits', { txHash: `0x${'g'.repeat(64)}` }],
    ['a short address', { to: '0x1234' }],
    ['an address with a wrong checksum', { to: '0x8ba1f109551bD432803012645Ac136ddd64DBa72' }],
    ['amount 0', { amount: '0' }],
    ['amount 000', { amount: '000' }],
    ['a negative amount', { amount: '-1' }],
    ['a decimal amount', { amount: '1.5' }],
    ['an amount with letters', { amount: '12a' }],
    ['an amount as a number', { amount: 5 }],
    ['an amount over 78 digits', { amount: '1'.repeat(79) }],
    ['an amount over 2^256 - 1', { amount: '9'.repeat(78) }],
    ['an unknown asset', { asset: 'dai' }],
    ['a chain id that is not an integer', { chainId: '8453' }],
    ['a recipient phone not in E.164', { recipientPhone: '07400 987654' }],
    ['an unknown property', { memo: 'hi' }],
  ])('refuses %s with 400 invalid_data', async (_name, overrides) => {
    const t = await createTestApp(db());
    const { alice } = await aliceAndBob(t);
    expectError(await record(t, alice.token, transfer(overrides)), 400, 'invalid_data');
    expect(await db().selectFrom('transfers').select('id').execute()).toEqual([]);
  });

  it('refuses a missing field with 400 invalid_data', async () => {
    const t = await createTestApp(db());
    const { alice } = await aliceAndBob(t);
    for (const field of ['chainId', 'txHash', 'to', 'asset', 'amount']) {
      const body: Record<string, unknown> = transfer();
      delete body[field];
      expectError(await record(t, alice.token, body), 400, 'invalid_data');
    }
  });

  it('refuses a recipient phone that is no valid number with 400 invalid_phone', async () => {
    const t = await createTestApp(db());
    const { alice } = await aliceAndBob(t);
    expectError(await record(t, alice.token, transfer({ recipientPhone: '+44123' })), 400, 'invalid_phone');
  });

  it.each([
    ['Ethereum mainnet', 1],
    ['the local chain when it is off', 31337],
  ])('refuses %s with 400 unsupported_chain', async (_name, chainId) => {
    const t = await createTestApp(db());
    const { alice } = await aliceAndBob(t);
    expectError(await record(t, alice.token, transfer({ chainId })), 400, 'unsupported_chain');
  });

  it('accepts every supported chain, and the local chain when it is on', async () => {
    const t = await createTestApp(db(), {
      config: { localChain: { start: false, port: 8545, rpcUrl: 'http://127.0.0.1:9' } },
    });
    const { alice } = await aliceAndBob(t);
    for (const chainId of [137, 42161, 8453, 84532, 7777777, 31337]) {
      const response = await record(t, alice.token, transfer({ chainId }));
      expect(response.statusCode).toBe(201);
      expect(response.json().chainId).toBe(chainId);
    }
  });

  it('answers 404 wallet_not_found to a user without a wallet', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', ALICE_PHONE);
    expectError(await record(t, token, transfer()), 404, 'wallet_not_found');
  });

  it('answers 401 unauthorized when signed out', async () => {
    const t = await createTestApp(db());
    expectError(await record(t, undefined, transfer()), 401, 'unauthorized');
    expectError(await list(t, undefined), 401, 'unauthorized');
    expectError(
      await patch(t, undefined, '00000000-0000-4000-8000-000000000000', { status: 'confirmed' }),
      401,
      'unauthorized',
    );
  });

  it('refuses a PATCH from another origin with 403 forbidden_origin', async () => {
    const t = await createTestApp(db());
    const { alice } = await aliceAndBob(t);
    const created = (await record(t, alice.token, transfer())).json();
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/activity/${created.id}`,
      headers: { origin: 'https://evil.example', cookie: `${SESSION_COOKIE}=${alice.token}` },
      payload: { status: 'failed' },
    });
    expectError(response, 403, 'forbidden_origin');
  });

  it.each([
    ['limit 0', { limit: '0' }],
    ['limit 101', { limit: '101' }],
    ['a limit that is no number', { limit: 'ten' }],
    ['a before that is no time', { before: 'yesterday' }],
    ['a before without milliseconds', { before: '2030-01-01T12:00:00Z' }],
  ])('refuses a list with %s with 400 invalid_data', async (_name, query) => {
    const t = await createTestApp(db());
    const { alice } = await aliceAndBob(t);
    expectError(await list(t, alice.token, query), 400, 'invalid_data');
  });

  it('refuses a user’s records beyond the limit with 429 and Retry-After', async () => {
    const t = await createTestApp(db());
    const { alice } = await aliceAndBob(t);
    for (let i = 0; i < ACTIVITY_LIMITS.recordsPerUser.max; i++) {
      expect((await record(t, alice.token, transfer({ txHash: hashOf(i + 1) }))).statusCode).toBe(201);
    }
    const refused = await record(t, alice.token, transfer({ txHash: hashOf(1000) }));
    expectError(refused, 429, 'too_many_requests');
    expect(refused.headers['retry-after']).toBe('3600');
    t.clock.advance(3600_000);
    expect((await record(t, alice.token, transfer({ txHash: hashOf(1000) }))).statusCode).toBe(201);
  });
});

describe.each(DIALECTS)('the transfers table (migration 0003) on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const at = '2030-01-01T12:00:00.000Z';

  async function users(...ids: string[]) {
    for (const id of ids) await db().insertInto('users').values({ id, created_at: at }).execute();
  }

  function row(overrides: Partial<Record<string, unknown>> = {}) {
    return {
      id: 't1',
      sender_user_id: 'u1',
      chain_id: BASE,
      tx_hash: hashOf(1),
      from_address: ALICE_ADDRESS,
      to_address: BOB_ADDRESS,
      asset: 'usdc' as const,
      amount: '1',
      recipient_user_id: 'u2',
      recipient_phone: null,
      status: 'pending' as const,
      created_at: at,
      updated_at: at,
      ...overrides,
    };
  }

  it('refuses an unknown asset or status and a second row for one chain and hash', async () => {
    await users('u1', 'u2');
    await expect(
      db()
        .insertInto('transfers')
        .values(row({ asset: 'dai' }))
        .execute(),
    ).rejects.toThrow();
    await expect(
      db()
        .insertInto('transfers')
        .values(row({ status: 'lost' }))
        .execute(),
    ).rejects.toThrow();
    await db().insertInto('transfers').values(row()).execute();
    await expect(
      db()
        .insertInto('transfers')
        .values(row({ id: 't2' }))
        .execute(),
    ).rejects.toThrow();
    await db()
      .insertInto('transfers')
      .values(row({ id: 't3', chain_id: 137 }))
      .execute();
    expect(await db().selectFrom('transfers').select('id').orderBy('id').execute()).toEqual([
      { id: 't1' },
      { id: 't3' },
    ]);
  });

  it('deletes a transfer with its sender and forgets a deleted recipient', async () => {
    await users('u1', 'u2', 'u3');
    await db().insertInto('transfers').values(row()).execute();
    await db()
      .insertInto('transfers')
      .values(row({ id: 't2', tx_hash: hashOf(2), sender_user_id: 'u3' }))
      .execute();
    await db().deleteFrom('users').where('id', '=', 'u2').execute();
    expect(
      await db().selectFrom('transfers').select(['id', 'recipient_user_id']).orderBy('id').execute(),
    ).toEqual([
      { id: 't1', recipient_user_id: null },
      { id: 't2', recipient_user_id: null },
    ]);
    await db().deleteFrom('users').where('id', '=', 'u1').execute();
    expect(await db().selectFrom('transfers').select('id').execute()).toEqual([{ id: 't2' }]);
  });

  it('migrates down to 0002 and up again', async () => {
    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    const down = await migrator.migrateTo('0002_recovery_and_rotation');
    expect(down.results?.map((result) => [result.migrationName, result.direction, result.status])).toEqual([
      ['0004_onramp', 'Down', 'Success'],
      ['0003_activity', 'Down', 'Success'],
    ]);
    expect((await db().introspection.getTables()).map((table) => table.name)).not.toContain('transfers');
    await migrateToLatest(db());
    expect(await db().selectFrom('transfers').selectAll().execute()).toEqual([]);
  });
});
