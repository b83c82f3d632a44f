import { accountChangeMessage, createWalletShares, encodeShare } from '@dial/core';
import { type Hex, verifyMessage } from 'viem';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { splitId } from '../keys/deviceShareRecords';
import { withDialServer } from '../keys/testing/dialServer';
import { TEST_WALLET_ADDRESS, TEST_WALLET_KEY } from '../keys/testing/testWallet';

/**
 * The account key's proof on a browser that holds its device share: the real server issues the challenge
 * and gives the auth share; the in-memory stand-in for the IndexedDB store holds the device share.
 */
const memory = await vi.hoisted(async () =>
  (await import('../keys/testing/memoryShareStore')).memoryShareStore(),
);
vi.mock('../keys/deviceShareStore', () => ({ deviceShareStore: memory.store }));

const { proveAccountChange, requireAccountProof } = await import('./proveAccountChange');
const { deviceShareStore } = await import('../keys/deviceShareStore');

const dialServer = withDialServer();
let USER = '';

beforeEach(() => {
  USER = dialServer().userId;
  memory.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Registers the test wallet on the server; its device share is kept here unless `keep` is false. */
async function holdWallet(keep = true) {
  const shares = await createWalletShares(TEST_WALLET_KEY);
  if (keep) {
    const slot = { address: TEST_WALLET_ADDRESS, generation: 1, split: await splitId(shares.authShare) };
    await deviceShareStore.save(USER, slot, shares.deviceShare);
  }
  await dialServer().hold({
    key: TEST_WALLET_KEY,
    authShare: encodeShare(shares.authShare),
    generation: 1,
    recovery: null,
  });
}

describe('proveAccountChange', () => {
  it("signs exactly the change with the key rebuilt from this browser's device share, asking no wallet", async () => {
    await holdWallet();
    const findWallet = vi.fn(async () => null);
    const attempt = await proveAccountChange(
      USER,
      { action: 'link-method', kind: 'email', value: 'ada@example.com' },
      { findWallet },
    );

    expect(findWallet).not.toHaveBeenCalled();
    if (attempt.proof === null) throw new Error(`no proof: ${attempt.reason}`);
    if ('passkey' in attempt.proof) throw new Error('a passkey’s proof, not the key’s');
    const { challenge, address, signature } = attempt.proof;
    expect(address).toBe(TEST_WALLET_ADDRESS);
    const issued = dialServer().answers.find((answer) => answer.route === 'POST /api/account/proof');
    expect(issued).toMatchObject({ status: 201, body: { challenge, signers: [TEST_WALLET_ADDRESS] } });
    const message = accountChangeMessage({
      action: 'link-method',
      target: 'email:ada@example.com',
      challenge,
      userId: USER,
      address,
    });
    await expect(
      verifyMessage({ address: address as Hex, message, signature: signature as Hex }),
    ).resolves.toBe(true);
  });

  it('signs a wallet’s link with its address in lower case, as the server checks it', async () => {
    await holdWallet();
    const wallet = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
    const attempt = await proveAccountChange(USER, { action: 'link-method', kind: 'wallet', value: wallet });
    if (attempt.proof === null) throw new Error(`no proof: ${attempt.reason}`);
    if ('passkey' in attempt.proof) throw new Error('a passkey’s proof, not the key’s');
    const message = accountChangeMessage({
      action: 'link-method',
      target: `wallet:${wallet.toLowerCase()}`,
      challenge: attempt.proof.challenge,
      userId: USER,
      address: TEST_WALLET_ADDRESS,
    });
    await expect(
      verifyMessage({ address: TEST_WALLET_ADDRESS, message, signature: attempt.proof.signature as Hex }),
    ).resolves.toBe(true);
  });

  it('gives no proof, and says why, when this browser holds no device share of the wallet', async () => {
    await holdWallet(false);
    await expect(proveAccountChange(USER, { action: 'secure-account' })).resolves.toEqual({
      proof: null,
      reason: 'no-device-share',
    });
  });

  it('gives no proof for an account that has no key yet', async () => {
    await expect(proveAccountChange(USER, { action: 'end-sessions', id: 'all-others' })).resolves.toEqual({
      proof: null,
      reason: 'no-signer',
    });
  });
});

describe('requireAccountProof', () => {
  it('refuses with account_proof_required, saying why, when this browser can give no proof', async () => {
    await holdWallet(false);
    const refused = await requireAccountProof(USER, {
      action: 'export-key',
      address: TEST_WALLET_ADDRESS,
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'account_proof_required',
      message: expect.stringContaining("does not hold your wallet's key share"),
    });
  });
});
