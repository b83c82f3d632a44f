import { randomBytes } from 'node:crypto';
import { accountChangeMessage, accountChangeTarget, LOCAL_CHAIN_ID, SHARE_LENGTH } from '@dial/core';
import { type DevChain, startDevChain } from '@dial/devchain';
import type { Kysely } from 'kysely';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueTransferChecks, TRANSFER_CHECKS } from '../src/activity/transferChecks.js';
import { linkMethod } from '../src/auth/linkMethod.js';
import { createSession } from '../src/auth/sessions.js';
import { findOrCreateUser } from '../src/auth/users.js';
import { createChainReader } from '../src/chain/chainReader.js';
import { deriveKey } from '../src/crypto/deriveKey.js';
import type { Database } from '../src/db/database.js';
import { saveWallet } from '../src/wallet/walletStore.js';
import { listActivity, localChainConfig, QUIET_TIMER, recordTransfer } from './activityPeople.js';
import { type ChainActor, fundedActor, mineBlock, pauseMining, resumeMining } from './chainActors.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, PHONE, SANDBOX_ONRAMP, type TestApp } from './testApp.js';

// The account's wallet (`accountWallet`): the embedded wallet when the account has one, else the first
// wallet it linked. Send-to-phone, recording and checking transfers and the on-ramp all use it, so a person
// who signed in with their own wallet sends, receives and buys with it. Against a real local chain.

let chain: DevChain;
beforeAll(async () => {
  chain = await startDevChain({ port: 0 });
});
afterAll(async () => {
  await chain.close();
});

function native(txHash: string, to: string, amount: bigint) {
  return { chainId: LOCAL_CHAIN_ID, txHash, to, asset: 'native', amount: amount.toString() };
}

/** A person who signed up with their own wallet (as a SIWE sign-in does) and has a session. */
async function walletPerson(t: TestApp, db: Kysely<Database>, key: ChainActor) {
  const { user } = await findOrCreateUser(
    db,
    { kind: 'wallet', value: key.address },
    { allowlist: null, maxUsers: null },
    t.clock.now(),
  );
  const { token } = await createSession(db, user.id, t.config.session, t.clock.now(), { method: 'wallet' });
  return { token, userId: user.id, address: key.address };
}

describe.each(DIALECTS)('the account’s wallet on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  const chainApp = (config = {}) =>
    createTestApp(db(), { config: { ...localChainConfig(chain), ...config }, deps: QUIET_TIMER });

  it('lets a wallet-signed-in person record a send from their wallet, and shows it to a wallet-only recipient', async () => {
    const t = await chainApp();
    const [aliceKey, bobKey] = await Promise.all([fundedActor(chain), fundedActor(chain)]);
    const alice = await walletPerson(t, db(), aliceKey);
    const bob = await walletPerson(t, db(), bobKey);
    expect((await t.get('/api/me', { token: alice.token })).json().user.wallet).toEqual({
      address: aliceKey.address,
      kind: 'external',
    });

    const hash = await aliceKey.sendNative(bobKey.address, 42_000n);
    const recorded = await recordTransfer(t, alice.token, native(hash, bobKey.address, 42_000n));
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect(recorded.json()).toMatchObject({ status: 'confirmed', from: aliceKey.address, direction: 'sent' });
    expect((await listActivity(t, bob.token)).json().items).toEqual([
      expect.objectContaining({ direction: 'received', txHash: hash, from: aliceKey.address }),
    ]);
  });

  it('counts only the first linked wallet: a send from a second linked wallet is not the account’s', async () => {
    const t = await chainApp();
    const [firstKey, secondKey, bobKey] = await Promise.all([
      fundedActor(chain),
      fundedActor(chain),
      fundedActor(chain),
    ]);
    const alice = await walletPerson(t, db(), firstKey);
    t.clock.advance(60_000);
    await linkMethod(
      db(),
      alice.userId,
      { kind: 'wallet', value: secondKey.address },
      5,
      t.clock.now(),
      true,
    );

    const hash = await secondKey.sendNative(bobKey.address, 1_000n);
    expectError(
      await recordTransfer(t, alice.token, native(hash, bobKey.address, 1_000n)),
      403,
      'not_your_transaction',
    );
  });

  it('prefers the embedded wallet over a linked one, for /api/me, send-to-phone and recording', async () => {
    const t = await chainApp();
    const [linkedKey, embeddedKey, bobKey] = await Promise.all([
      fundedActor(chain),
      fundedActor(chain),
      fundedActor(chain),
    ]);
    const owner = await t.signIn('sms', PHONE);
    const userId = owner.response.json().user.id;
    await linkMethod(db(), userId, { kind: 'wallet', value: linkedKey.address }, 5, t.clock.now(), true);
    const sender = await t.signIn('email', 'grace@example.com');
    const lookup = () =>
      t.get(`/api/users/lookup?phone=${encodeURIComponent(PHONE)}`, { token: sender.token });
    expect((await lookup()).json().address).toBe(linkedKey.address);

    await saveWallet(
      db(),
      deriveKey(t.config.shareEncryptionKey, 'dial/auth-share'),
      { userId, address: embeddedKey.address, authShare: new Uint8Array(randomBytes(SHARE_LENGTH)) },
      t.clock.now(),
    );
    expect((await t.get('/api/me', { token: owner.token })).json().user.wallet).toEqual({
      address: embeddedKey.address,
      kind: 'embedded',
    });
    expect((await lookup()).json().address).toBe(embeddedKey.address);
    const fromLinked = await linkedKey.sendNative(bobKey.address, 1_000n);
    expectError(
      await recordTransfer(t, owner.token, native(fromLinked, bobKey.address, 1_000n)),
      403,
      'not_your_transaction',
    );
    const fromEmbedded = await embeddedKey.sendNative(bobKey.address, 1_000n);
    expect(
      (await recordTransfer(t, owner.token, native(fromEmbedded, bobKey.address, 1_000n))).statusCode,
    ).toBe(201);
  });

  it('drops a pending transfer whose sending wallet was unlinked before the chain check', async () => {
    const t = await chainApp();
    const [aliceKey, bobKey] = await Promise.all([fundedActor(chain), fundedActor(chain)]);
    const alice = await t.signIn('sms', PHONE);
    await linkMethod(
      db(),
      alice.response.json().user.id,
      { kind: 'wallet', value: aliceKey.address },
      5,
      t.clock.now(),
      true,
    );
    await pauseMining(chain);
    try {
      const hash = await aliceKey.sendNative(bobKey.address as Address, 5_000n);
      const recorded = await recordTransfer(t, alice.token, native(hash, bobKey.address, 5_000n));
      expect(recorded.json()).toMatchObject({ status: 'pending' });
      const methods = (await t.get('/api/auth/methods', { token: alice.token })).json().methods;
      const wallet = methods.find((method: { kind: string }) => method.kind === 'wallet');
      // Removed at once with the key's proof: the account's key is this trusted wallet itself.
      const { challenge } = (
        await t.post('/api/account/proof', { action: 'remove-method' }, { token: alice.token })
      ).json();
      const message = accountChangeMessage({
        action: 'remove-method',
        target: accountChangeTarget({ action: 'remove-method', id: wallet.id }),
        challenge,
        userId: alice.response.json().user.id,
        address: aliceKey.address,
      });
      const proof = {
        challenge,
        address: aliceKey.address,
        signature: await aliceKey.account.signMessage({ message }),
      };
      expect(
        (await t.post(`/api/auth/methods/${wallet.id}/remove`, { proof }, { token: alice.token })).statusCode,
      ).toBe(200);
      await mineBlock(chain);
    } finally {
      await resumeMining(chain);
    }
    t.clock.advance(TRANSFER_CHECKS.firstRetryMs);
    const outcomes = await runDueTransferChecks({
      db: db(),
      chain: createChainReader(t.config),
      now: t.clock.now,
    });
    expect([...outcomes.values()]).toEqual([
      { status: 'dropped', reason: 'not_sender', details: 'the sender has no wallet at that address' },
    ]);
  });

  it('starts an on-ramp purchase for a wallet-signed-in person, crediting their wallet', async () => {
    const t = await chainApp({ onramp: SANDBOX_ONRAMP });
    const key = await fundedActor(chain);
    const person = await walletPerson(t, db(), key);
    const response = await t.post(
      '/api/onramp/session',
      { asset: 'USDC', network: 'base', amount: '25', experience: 'buy' },
      { token: person.token },
    );
    expect(response.statusCode, response.body).toBe(200);
    const stored = await db().selectFrom('onramp_sessions').select(['user_id', 'wallet_address']).execute();
    expect(stored).toEqual([{ user_id: person.userId, wallet_address: key.address }]);
  });
});
