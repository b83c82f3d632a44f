import { LOCAL_CHAIN_ID, SIMPLE_7702_ACCOUNT } from '@dial/core';
import { type Bundler, type DevChain, startBundler, startDevChain } from '@dial/devchain';
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  type PublicClient,
} from 'viem';
import { type BundlerClient, createBundlerClient, toSimple7702SmartAccount } from 'viem/account-abstraction';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listActivity,
  localChainConfig,
  personWithWallet,
  QUIET_TIMER,
  recordTransfer,
} from './activityPeople.js';
import { type ChainActor, fundedActor, viemChain } from './chainActors.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';

// Issue 29: a sponsored send is a user operation that a bundler puts in its own transaction (to the
// EntryPoint, from the bundler's key). The server must still vouch for it from the chain alone: the
// transaction's handleOps holds an operation from the sender that makes exactly the transfer recorded, and
// the EntryPoint's UserOperationEvent for it says whether it ran. Real chain, real bundler (Alto).

const BOB_PHONE = '+447400987654';
const MALLORY_PHONE = '+447400555111';
const USDC = 1_000_000n;

let chain: DevChain;
let bundler: Bundler;
let client: PublicClient;
let bundlerClient: BundlerClient;
beforeAll(async () => {
  chain = await startDevChain({ port: 0 });
  bundler = await startBundler({
    rpcUrl: chain.url,
    entryPoint: chain.accountAbstraction.entryPoint,
    port: 0,
  });
  client = createPublicClient({ chain: viemChain(chain), transport: http(chain.url), cacheTime: 0 });
  bundlerClient = createBundlerClient({ client, transport: http(bundler.url), pollingInterval: 50 });
}, 60_000);
afterAll(async () => {
  await bundler?.close();
  await chain?.close();
});

/**
 * Sends `calls` from `actor`'s wallet as one user operation (its fee paid from its own ETH; who pays does not
 * matter to the judge), delegating the wallet to Simple7702Account first when it is not yet. Returns the hash
 * of the bundler's transaction.
 */
async function sendOperation(actor: ChainActor, calls: { to: Address; value?: bigint; data?: Hex }[]) {
  const account = await toSimple7702SmartAccount({ client, owner: actor.account });
  const delegated = (await client.getCode({ address: actor.address }))?.startsWith('0xef0100') === true;
  const authorization = delegated
    ? undefined
    : await actor.account.signAuthorization({
        chainId: chain.chainId,
        nonce: await client.getTransactionCount({ address: actor.address }),
        contractAddress: SIMPLE_7702_ACCOUNT,
      });
  const hash = await bundlerClient.sendUserOperation({
    account,
    calls,
    ...(authorization !== undefined ? { authorization } : {}),
  });
  const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 });
  return { txHash: receipt.receipt.transactionHash, success: receipt.success };
}

function usdcTransfer(to: Address, amount: bigint) {
  return {
    to: chain.usdc,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
  };
}

describe.each(DIALECTS)('transfers sent as user operations, checked against the chain on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  async function setUp() {
    const t = await createTestApp(db(), { config: localChainConfig(chain), deps: QUIET_TIMER });
    const alice = await fundedActor(chain, { usdc: 10n * USDC });
    const aliceP = await person(t, PHONE, alice.address);
    const bob = await person(t, BOB_PHONE, (await fundedActor(chain)).address);
    const mallory = await person(t, MALLORY_PHONE, (await fundedActor(chain)).address);
    return { t, alice, aliceP, bob, mallory };
  }

  function person(t: TestApp, phone: string, address: Address) {
    return personWithWallet(t, db(), 'sms', phone, address);
  }

  it('confirms a USDC transfer and a native one made by the sender’s user operations (the first with its EIP-7702 delegation), and shows them to the recipient', async () => {
    const { t, alice, aliceP, bob } = await setUp();
    const first = await sendOperation(alice, [usdcTransfer(bob.address as Address, 3n * USDC)]);
    expect(first.success).toBe(true);
    // The bundler's transaction carried the delegation: EIP-7702, whose signature the server checks too.
    expect((await client.getTransaction({ hash: first.txHash })).type).toBe('eip7702');
    const recorded = await recordTransfer(t, aliceP.token, {
      chainId: LOCAL_CHAIN_ID,
      txHash: first.txHash,
      to: bob.address,
      asset: 'usdc',
      amount: (3n * USDC).toString(),
    });
    expect(recorded.statusCode).toBe(201);
    expect(recorded.json()).toMatchObject({ status: 'confirmed', asset: 'usdc', amount: '3000000' });

    const second = await sendOperation(alice, [{ to: getAddress(bob.address), value: 12345n }]);
    const native = await recordTransfer(t, aliceP.token, {
      chainId: LOCAL_CHAIN_ID,
      txHash: second.txHash,
      to: bob.address,
      asset: 'native',
      amount: '12345',
    });
    expect(native.statusCode).toBe(201);
    expect(native.json().status).toBe('confirmed');

    const received = (await listActivity(t, bob.token))
      .json()
      .items.filter((item: { direction: string }) => item.direction === 'received');
    expect(received).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ txHash: first.txHash, asset: 'usdc', status: 'confirmed' }),
        expect.objectContaining({ txHash: second.txHash, asset: 'native', status: 'confirmed' }),
      ]),
    );
  }, 60_000);

  it('refuses a bundle transaction claimed by someone whose wallet sent no operation in it (403), and another amount or recipient (400)', async () => {
    const { t, alice, aliceP, bob, mallory } = await setUp();
    const { txHash } = await sendOperation(alice, [usdcTransfer(bob.address as Address, 2n * USDC)]);
    const claim = {
      chainId: LOCAL_CHAIN_ID,
      txHash,
      to: bob.address,
      asset: 'usdc',
      amount: (2n * USDC).toString(),
    };
    expectError(
      await recordTransfer(t, aliceP.token, { ...claim, amount: '1999999' }),
      400,
      'transfer_mismatch',
    );
    expectError(
      await recordTransfer(t, aliceP.token, { ...claim, to: mallory.address }),
      400,
      'transfer_mismatch',
    );
    expectError(
      await recordTransfer(t, aliceP.token, { ...claim, asset: 'native' }),
      400,
      'transfer_mismatch',
    );
    expectError(
      await recordTransfer(t, mallory.token, {
        chainId: LOCAL_CHAIN_ID,
        txHash,
        to: bob.address,
        asset: 'usdc',
        amount: (2n * USDC).toString(),
      }),
      403,
      'not_your_transaction',
    );
    expect((await recordTransfer(t, aliceP.token, claim)).json().status).toBe('confirmed');
  }, 60_000);

  it('makes a user operation that ran and reverted (more USDC than the wallet holds) failed, from its UserOperationEvent', async () => {
    const { t, alice, aliceP, bob } = await setUp();
    // Delegated first, so that the next operation's gas can be set past its estimate.
    await sendOperation(alice, [usdcTransfer(bob.address as Address, USDC)]);
    const account = await toSimple7702SmartAccount({ client, owner: alice.account });
    const operation = await bundlerClient.prepareUserOperation({
      account,
      calls: [usdcTransfer(bob.address as Address, USDC)],
    });
    // Same call data shape, but an amount the wallet does not hold: valid to the EntryPoint, reverts when run.
    const callData = await account.encodeCalls([usdcTransfer(bob.address as Address, 500n * USDC)]);
    const unsigned = { ...operation, callData, callGasLimit: 200_000n };
    const hash = await bundlerClient.sendUserOperation({
      ...unsigned,
      signature: await account.signUserOperation(unsigned),
    } as never);
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 });
    expect(receipt.success).toBe(false);
    const claim = {
      chainId: LOCAL_CHAIN_ID,
      txHash: receipt.receipt.transactionHash,
      to: bob.address,
      asset: 'usdc',
      amount: (500n * USDC).toString(),
    };
    // What a reverted operation would have moved is read from its call data: another amount is a mismatch.
    expectError(
      await recordTransfer(t, aliceP.token, { ...claim, amount: '400000000' }),
      400,
      'transfer_mismatch',
    );
    const recorded = await recordTransfer(t, aliceP.token, claim);
    expect(recorded.statusCode).toBe(201);
    expect(recorded.json().status).toBe('failed');
  }, 60_000);
});
