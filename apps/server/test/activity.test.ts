import { LOCAL_CHAIN_ID, SUPPORTED_CHAINS } from '@dial/core';
import { type DevChain, startDevChain } from '@dial/devchain';
import { type Address, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../src/config/rateLimits.js';
import {
  askToCheck,
  listActivity,
  localChainConfig,
  type Person,
  personWithWallet,
  QUIET_TIMER,
  recordTransfer,
} from './activityPeople.js';
import { type ChainActor, fundedActor, unfundedActor } from './chainActors.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';

// The API's shape, lists and input checks. The chain checks themselves, and the attacks on them, are in
// activityChecks.test.ts. Every app here reads a real local chain.

const ALICE_PHONE = PHONE; // +447400123456, masked *3456
const BOB_PHONE = '+447400987654'; // masked *7654
const STRANGER_ADDRESS = getAddress('0x00000000000000000000000000000000000000ee');
const LOCAL = LOCAL_CHAIN_ID;
const ITEM_KEYS = [
  'amount',
  'asset',
  'blockNumber',
  'chainId',
  'counterparty',
  'createdAt',
  'direction',
  'from',
  'id',
  'source',
  'status',
  'to',
  'txHash',
];
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let chain: DevChain;
beforeAll(async () => {
  chain = await startDevChain({ port: 0 });
});
afterAll(async () => {
  await chain.close();
});

/** A hash no transaction has: the chain does not know it, so its record stays pending (to its sender). */
function unknownHash(n: number): string {
  return `0x${n.toString(16).padStart(64, 'f')}`;
}

/** A transfer body on the local chain; by default a native transfer of an unknown hash to `to`. */
function transfer(to: string, overrides: Record<string, unknown> = {}) {
  return { chainId: LOCAL, txHash: unknownHash(1), to, asset: 'native', amount: '2500000', ...overrides };
}

describe.each(DIALECTS)('activity on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  const chainApp = () => createTestApp(db(), { config: localChainConfig(chain), deps: QUIET_TIMER });

  /** Alice and Bob, each with a wallet registered at an address of their own (holding nothing). */
  async function aliceAndBob(t: TestApp) {
    const alice = await personWithWallet(t, db(), 'sms', ALICE_PHONE, unfundedActor().address);
    const bob = await personWithWallet(t, db(), 'sms', BOB_PHONE, unfundedActor().address);
    return { alice, bob };
  }

  /** Alice and Bob, each with a key of their own holding test ETH, and a wallet registered at its address. */
  async function fundedAliceAndBob(t: TestApp) {
    const [aliceKey, bobKey] = await Promise.all([fundedActor(chain), fundedActor(chain)]);
    const alice = await personWithWallet(t, db(), 'sms', ALICE_PHONE, aliceKey.address);
    const bob = await personWithWallet(t, db(), 'sms', BOB_PHONE, bobKey.address);
    return { alice, bob, aliceKey, bobKey };
  }

  /** Sends `wei` on the chain and records it as the web app does. */
  async function sendAndRecord(
    t: TestApp,
    sender: Person,
    key: ChainActor,
    to: string,
    wei: bigint,
    extra: Record<string, unknown> = {},
  ) {
    const txHash = await key.sendNative(to as Address, wei);
    const response = await recordTransfer(t, sender.token, {
      chainId: LOCAL,
      txHash,
      to,
      asset: 'native',
      amount: wei.toString(),
      ...extra,
    });
    return { txHash, response };
  }

  it('records a sent transfer and answers with what the chain shows: 201 confirmed, exactly the item', async () => {
    const t = await chainApp();
    const { alice, bob, aliceKey } = await fundedAliceAndBob(t);
    const txHash = await aliceKey.sendNative(bob.address as Address, 2_500_000n);
    const response = await recordTransfer(t, alice.token, {
      chainId: LOCAL,
      txHash: txHash.toUpperCase().replace('0X', '0x'),
      to: bob.address.toLowerCase(),
      asset: 'native',
      amount: '0002500000',
      recipientPhone: BOB_PHONE,
    });
    expect(response.statusCode).toBe(201);
    const item = response.json();
    const now = t.clock.now().toISOString();
    expect(item).toEqual({
      id: expect.stringMatching(UUID_PATTERN),
      source: 'dial',
      direction: 'sent',
      chainId: LOCAL,
      txHash,
      blockNumber: null,
      from: alice.address,
      to: bob.address,
      asset: 'native',
      amount: '2500000',
      status: 'confirmed',
      createdAt: now,
      counterparty: { phone: '*7654' },
    });
    const row = await db().selectFrom('transfers').selectAll().executeTakeFirstOrThrow();
    expect(row).toEqual({
      id: item.id,
      sender_user_id: alice.userId,
      chain_id: LOCAL,
      tx_hash: txHash,
      from_address: alice.address,
      to_address: bob.address,
      asset: 'native',
      amount: '2500000',
      recipient_user_id: bob.userId,
      recipient_phone: BOB_PHONE,
      status: 'confirmed',
      created_at: now,
      updated_at: now,
      next_check_at: null,
      check_attempts: 1,
      checked_at: now,
      claimed_until: null,
      missing_since: null,
    });
  });

  it('lists a proven transfer as sent to its sender and as received, with the sender’s masked number, to its recipient', async () => {
    const t = await chainApp();
    const { alice, bob, aliceKey } = await fundedAliceAndBob(t);
    const { txHash, response } = await sendAndRecord(t, alice, aliceKey, bob.address, 10n);
    const common = {
      id: response.json().id,
      source: 'dial',
      chainId: LOCAL,
      txHash,
      blockNumber: null,
      from: alice.address,
      to: bob.address,
      asset: 'native',
      amount: '10',
      status: 'confirmed',
      createdAt: '2030-01-01T12:00:00.000Z',
    };

    const sent = await listActivity(t, alice.token);
    expect(sent.statusCode).toBe(200);
    // No recipientPhone was given: the recipient user's own number, masked.
    expect(sent.json()).toEqual({
      items: [{ ...common, direction: 'sent', counterparty: { phone: '*7654' } }],
      nextCursor: null,
    });
    const received = await listActivity(t, bob.token);
    expect(received.json()).toEqual({
      items: [{ ...common, direction: 'received', counterparty: { phone: '*3456' } }],
      nextCursor: null,
    });
    for (const body of [sent.body, received.body]) {
      for (const secret of [alice.userId, bob.userId, ALICE_PHONE, BOB_PHONE, '7400']) {
        expect(body).not.toContain(secret);
      }
    }
  });

  it('shows no e-mail address or user id: an e-mail sender has no number to show', async () => {
    const t = await chainApp();
    const [carolKey, bobKey] = await Promise.all([fundedActor(chain), fundedActor(chain)]);
    const carol = await personWithWallet(t, db(), 'email', 'carol@example.com', carolKey.address);
    const bob = await personWithWallet(t, db(), 'sms', BOB_PHONE, bobKey.address);
    await sendAndRecord(t, carol, carolKey, bob.address, 1n);
    t.clock.advance(1000);
    await sendAndRecord(t, bob, bobKey, carol.address, 2n);

    const bobList = await listActivity(t, bob.token);
    expect(bobList.json().items).toEqual([
      expect.objectContaining({ direction: 'sent', to: carol.address, counterparty: { phone: null } }),
      expect.objectContaining({ direction: 'received', from: carol.address, counterparty: { phone: null } }),
    ]);
    const carolList = await listActivity(t, carol.token);
    expect(carolList.json().items).toEqual([
      expect.objectContaining({ direction: 'received', from: bob.address, counterparty: { phone: '*7654' } }),
      expect.objectContaining({ direction: 'sent', to: bob.address, counterparty: { phone: '*7654' } }),
    ]);
    for (const response of [bobList, carolList]) {
      for (const item of response.json().items) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
    }
    for (const body of [bobList.body, carolList.body]) {
      for (const secret of ['carol@example.com', 'example.com', carol.userId, bob.userId, BOB_PHONE]) {
        expect(body).not.toContain(secret);
      }
    }
  });

  it('lists newest first and pages with an opaque cursor', async () => {
    const t = await chainApp();
    const { alice, bob, aliceKey, bobKey } = await fundedAliceAndBob(t);
    const hashes: string[] = [];
    for (let i = 1; i <= 5; i++) {
      // Alice sends 1, 3, 5; Bob sends 2 and 4 to Alice.
      const [sender, key, to] = i % 2 === 1 ? [alice, aliceKey, bob.address] : [bob, bobKey, alice.address];
      const { txHash, response } = await sendAndRecord(t, sender, key, to, BigInt(i));
      expect(response.statusCode).toBe(201);
      hashes.push(txHash);
      t.clock.advance(60_000);
    }
    const summary = (body: { items: { txHash: string; direction: string }[]; nextCursor: string | null }) =>
      body.items.map((item) => `${hashes.indexOf(item.txHash) + 1} ${item.direction}`);

    expect(summary((await listActivity(t, alice.token)).json())).toEqual([
      '5 sent',
      '4 received',
      '3 sent',
      '2 received',
      '1 sent',
    ]);
    const first = (await listActivity(t, alice.token, { limit: '2' })).json();
    expect(summary(first)).toEqual(['5 sent', '4 received']);
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = (await listActivity(t, alice.token, { limit: '2', cursor: first.nextCursor })).json();
    expect(summary(second)).toEqual(['3 sent', '2 received']);
    const third = (await listActivity(t, alice.token, { limit: '2', cursor: second.nextCursor })).json();
    expect(summary(third)).toEqual(['1 sent']);
    expect(third.nextCursor).toBeNull();
    // Exactly a full last page: no further cursor.
    expect((await listActivity(t, bob.token, { limit: '5' })).json().nextCursor).toBeNull();
    expect((await listActivity(t, alice.token, { limit: '5' })).json().nextCursor).toBeNull();
  });

  it('does not skip or repeat transfers that share a millisecond across pages', async () => {
    const t = await chainApp();
    const { alice, bob } = await aliceAndBob(t);
    await recordTransfer(t, alice.token, transfer(bob.address, { txHash: unknownHash(1) }));
    t.clock.advance(1000);
    for (const n of [2, 3, 4]) {
      await recordTransfer(t, alice.token, transfer(bob.address, { txHash: unknownHash(n) }));
    }

    const first = (await listActivity(t, alice.token, { limit: '2' })).json();
    expect(first.items).toHaveLength(2);
    const second = (await listActivity(t, alice.token, { limit: '2', cursor: first.nextCursor })).json();
    expect(second.items).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    const hashes = [...first.items, ...second.items].map((item: { txHash: string }) => item.txHash);
    expect(hashes.slice(0, 3).sort()).toEqual([unknownHash(2), unknownHash(3), unknownHash(4)].sort());
    expect(hashes[3]).toBe(unknownHash(1));
  });

  it('hides a transfer from everyone but its sender and recipient: others can neither see it nor ask to check it', async () => {
    const t = await chainApp();
    const { alice, bob, aliceKey } = await fundedAliceAndBob(t);
    const carolKey = await fundedActor(chain);
    const carol = await personWithWallet(t, db(), 'email', 'carol@example.com', carolKey.address);
    const created = (await sendAndRecord(t, alice, aliceKey, bob.address, 3n)).response.json();

    expect((await listActivity(t, carol.token)).json()).toEqual({ items: [], nextCursor: null });
    expectError(await askToCheck(t, carol.token, created.id), 404, 'not_found');
    // The recipient sees it but cannot ask either.
    expect((await listActivity(t, bob.token)).json().items).toHaveLength(1);
    expectError(await askToCheck(t, bob.token, created.id), 404, 'not_found');
    expectError(await askToCheck(t, alice.token, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
  });

  it('lists a transfer to an address of no Dial user to its sender only', async () => {
    const t = await chainApp();
    const { alice, bob, aliceKey } = await fundedAliceAndBob(t);
    const { response } = await sendAndRecord(t, alice, aliceKey, STRANGER_ADDRESS, 4n, {
      recipientPhone: '+14155552671',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      to: STRANGER_ADDRESS,
      status: 'confirmed',
      counterparty: { phone: '*2671' },
    });
    expect(
      (await db().selectFrom('transfers').select('recipient_user_id').executeTakeFirstOrThrow())
        .recipient_user_id,
    ).toBeNull();
    expect((await listActivity(t, alice.token)).json().items).toEqual([response.json()]);
    expect((await listActivity(t, bob.token)).json()).toEqual({ items: [], nextCursor: null });
  });

  it('lists a transfer to one’s own wallet once, as sent', async () => {
    const t = await chainApp();
    const { alice, aliceKey } = await fundedAliceAndBob(t);
    await sendAndRecord(t, alice, aliceKey, alice.address, 5n);
    const items = (await listActivity(t, alice.token)).json().items;
    expect(items).toEqual([
      expect.objectContaining({ direction: 'sent', status: 'confirmed', counterparty: { phone: '*3456' } }),
    ]);
  });

  it('gives the stored transfer back, unchanged, when its sender records it again (a retry)', async () => {
    const t = await chainApp();
    const { alice, bob } = await aliceAndBob(t);
    const first = await recordTransfer(t, alice.token, transfer(bob.address, { txHash: unknownHash(0xabc) }));
    expect(first.statusCode).toBe(201);
    expect(first.json().status).toBe('pending');
    t.clock.advance(1000);
    const retry = await recordTransfer(
      t,
      alice.token,
      transfer(bob.address, { txHash: unknownHash(0xabc).toUpperCase().replace('0X', '0x'), amount: '1' }),
    );
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(await db().selectFrom('transfers').select('id').execute()).toHaveLength(1);
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
    const t = await chainApp();
    const { alice, bob } = await aliceAndBob(t);
    expectError(await recordTransfer(t, alice.token, transfer(bob.address, overrides)), 400, 'invalid_data');
    expect(await db().selectFrom('transfers').select('id').execute()).toEqual([]);
  });

  it('refuses a missing field with 400 invalid_data', async () => {
    const t = await chainApp();
    const { alice, bob } = await aliceAndBob(t);
    for (const field of ['chainId', 'txHash', 'to', 'asset', 'amount']) {
      const body: Record<string, unknown> = transfer(bob.address);
      delete body[field];
      expectError(await recordTransfer(t, alice.token, body), 400, 'invalid_data');
    }
  });

  it('stores a recipient phone as E.164 writes it, without a trunk prefix after the calling code', async () => {
    const t = await chainApp();
    const { alice, bob } = await aliceAndBob(t);
    const response = await recordTransfer(
      t,
      alice.token,
      transfer(bob.address, { txHash: unknownHash(0xdef), recipientPhone: '+4407400987654' }),
    );
    expect(response.statusCode).toBe(201);
    expect(await db().selectFrom('transfers').select('recipient_phone').execute()).toEqual([
      { recipient_phone: '+447400987654' },
    ]);
  });

  it('refuses a recipient phone that is no valid number with 400 invalid_phone', async () => {
    const t = await chainApp();
    const { alice, bob } = await aliceAndBob(t);
    expectError(
      await recordTransfer(t, alice.token, transfer(bob.address, { recipientPhone: '+44123' })),
      400,
      'invalid_phone',
    );
  });

  it.each([
    ['Ethereum mainnet', 1, {}],
    ['the local chain when it is off', LOCAL, { localChain: null }],
  ])('refuses %s with 400 unsupported_chain', async (_name, chainId, config) => {
    const t = await createTestApp(db(), {
      config: { ...localChainConfig(chain), ...config },
      deps: QUIET_TIMER,
    });
    const { alice, bob } = await aliceAndBob(t);
    expectError(
      await recordTransfer(t, alice.token, transfer(bob.address, { chainId })),
      400,
      'unsupported_chain',
    );
  });

  it('refuses USDC where the server knows no USDC contract (Zora, a local chain without test USDC)', async () => {
    const t = await createTestApp(db(), {
      deps: QUIET_TIMER,
      config: {
        localChain: { start: false, port: 0, rpcUrl: chain.url, usdc: null },
        rpcUrls: { 7777777: 'http://127.0.0.1:9' },
      },
    });
    const { alice, bob } = await aliceAndBob(t);
    for (const chainId of [7777777, LOCAL]) {
      const response = await recordTransfer(
        t,
        alice.token,
        transfer(bob.address, { chainId, asset: 'usdc' }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: {
          code: 'unsupported_chain',
          message: 'USDC is not available on that network. Pick another network or asset.',
        },
      });
    }
    expect(await db().selectFrom('transfers').select('id').execute()).toEqual([]);
  });

  it('accepts every supported chain, and the local chain when it is on: pending while its RPC cannot be read', async () => {
    const down = 'http://127.0.0.1:9';
    const t = await createTestApp(db(), {
      deps: QUIET_TIMER,
      config: {
        localChain: { start: false, port: 0, rpcUrl: down, usdc: chain.usdc },
        rpcUrls: Object.fromEntries(SUPPORTED_CHAINS.map((supported) => [supported.id, down])),
      },
    });
    const { alice, bob } = await aliceAndBob(t);
    for (const chainId of [137, 42161, 8453, 84532, 7777777, LOCAL]) {
      const response = await recordTransfer(t, alice.token, transfer(bob.address, { chainId }));
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ chainId, status: 'pending' });
    }
  });

  it('answers 404 wallet_not_found to a user without a wallet', async () => {
    const t = await chainApp();
    const { token } = await t.signIn('sms', ALICE_PHONE);
    expectError(await recordTransfer(t, token, transfer(STRANGER_ADDRESS)), 404, 'wallet_not_found');
  });

  it('answers 401 unauthorized when signed out', async () => {
    const t = await chainApp();
    expectError(await recordTransfer(t, undefined, transfer(STRANGER_ADDRESS)), 401, 'unauthorized');
    expectError(await listActivity(t, undefined), 401, 'unauthorized');
    expectError(await askToCheck(t, undefined, '00000000-0000-4000-8000-000000000000'), 401, 'unauthorized');
  });

  it('refuses a PATCH from another origin with 403 forbidden_origin', async () => {
    const t = await chainApp();
    const { alice, bob } = await aliceAndBob(t);
    const created = (await recordTransfer(t, alice.token, transfer(bob.address))).json();
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/activity/${created.id}`,
      headers: { origin: 'https://evil.example', cookie: `dial_session=${alice.token}` },
      payload: {},
    });
    expectError(response, 403, 'forbidden_origin');
  });

  it.each([
    ['an id that is no UUID', 'x'.repeat(36), {}],
    ['an id with NUL', '%00', {}],
    ['an upper-case UUID', '00000000-0000-4000-8000-00000000000A', {}],
    ['an unknown status', '00000000-0000-4000-8000-000000000000', { status: 'done' }],
    ['an unknown property', '00000000-0000-4000-8000-000000000000', { extra: 1 }],
  ])('refuses a PATCH with %s with 400 invalid_data', async (_name, id, body) => {
    const t = await chainApp();
    const { alice } = await aliceAndBob(t);
    const response = await askToCheck(t, alice.token, id, body);
    // The message may say what is wrong (a control character has its own); the code is the catalogue's.
    expect({ status: response.statusCode, code: response.json().error.code }).toEqual({
      status: 400,
      code: 'invalid_data',
    });
  });

  it.each([
    ['limit 0', { limit: '0' }],
    ['limit 101', { limit: '101' }],
    ['a limit that is no number', { limit: 'ten' }],
    ['a before (the old cursor)', { before: '2030-01-01T12:00:00.000Z' }],
    ['a cursor with other characters', { cursor: 'a+b/c=' }],
    ['a cursor this server did not give', { cursor: Buffer.from('yesterday/x').toString('base64url') }],
    ['a chainId that is no number', { chainId: 'base' }],
  ])('refuses a list with %s with 400 invalid_data', async (_name, query) => {
    const t = await chainApp();
    const { alice } = await aliceAndBob(t);
    expectError(await listActivity(t, alice.token, query), 400, 'invalid_data');
  });

  it('refuses a user’s records beyond the limit with 429 and Retry-After', async () => {
    const t = await chainApp();
    const { alice, bob } = await aliceAndBob(t);
    for (let i = 0; i < RATE_LIMITS.activityRecordsPerUser.max; i++) {
      const response = await recordTransfer(
        t,
        alice.token,
        transfer(bob.address, { txHash: unknownHash(i + 1) }),
      );
      expect(response.statusCode).toBe(201);
    }
    const refused = await recordTransfer(
      t,
      alice.token,
      transfer(bob.address, { txHash: unknownHash(1000) }),
    );
    expectError(refused, 429, 'too_many_requests');
    expect(refused.headers['retry-after']).toBe('3600');
    t.clock.advance(3600_000);
    expect(
      (await recordTransfer(t, alice.token, transfer(bob.address, { txHash: unknownHash(1000) }))).statusCode,
    ).toBe(201);
  });

  it('refuses a user’s "check now" requests beyond the limit with 429, and answers a settled transfer without one', async () => {
    const t = await chainApp();
    const { alice, bob, aliceKey } = await fundedAliceAndBob(t);
    const pending = (await recordTransfer(t, alice.token, transfer(bob.address))).json();
    const settled = (await sendAndRecord(t, alice, aliceKey, bob.address, 6n)).response.json();
    for (let i = 0; i < RATE_LIMITS.activityChecksPerUser.max; i++) {
      expect((await askToCheck(t, alice.token, pending.id)).statusCode).toBe(200);
    }
    expectError(await askToCheck(t, alice.token, pending.id), 429, 'too_many_requests');
    const answer = await askToCheck(t, alice.token, settled.id);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual(settled);
  });
});
