import { accountChangeMessage } from '@dial/core';
import { type Hex, verifyMessage } from 'viem';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withDialServer } from '../keys/testing/dialServer';
import { TEST_WALLET_ADDRESS, TEST_WALLET_KEY } from '../keys/testing/testWallet';

/**
 * The account key's proof on a browser that is a device of the wallet: the real server issues the challenge
 * and gives the device's auth share to its secret; the in-memory stand-in for the IndexedDB store holds the
 * device.
 */
const memory = await vi.hoisted(async () =>
  (await import('../keys/testing/memoryDeviceStore')).memoryDeviceStore(),
);
vi.mock('../keys/deviceStore', () => ({ deviceStore: memory.store }));
vi.mock('../keys/legacyShares', () => ({ legacyShares: memory.legacyStore }));

const { proveAccountChange, requireAccountProof } = await import('./proveAccountChange');
const { deviceStore } = await import('../keys/deviceStore');
const { onDeviceRemoved } = await import('../keys/deviceRemoval');

const dialServer = withDialServer();
let USER = '';

beforeEach(() => {
  USER = dialServer().userId;
  memory.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Registers the test wallet on the server; this browser is its device unless `keep` is false. */
async function holdWallet(keep = true) {
  const { device } = await dialServer().register(TEST_WALLET_KEY);
  if (keep) await deviceStore.save(USER, device);
}

describe('proveAccountChange', () => {
  it("signs exactly the change with the key rebuilt through this browser's device, asking no wallet", async () => {
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

  it('gives no proof, and says why, when this browser is no device of the wallet', async () => {
    await holdWallet(false);
    await expect(proveAccountChange(USER, { action: 'secure-account' })).resolves.toEqual({
      proof: null,
      reason: 'no-device-share',
    });
  });

  it('gives no proof from a browser removed from the wallet on another device, which forgets it and tells', async () => {
    const server = dialServer();
    const { device } = await server.register(TEST_WALLET_KEY);
    await deviceStore.save(USER, device);
    await server.enroll(TEST_WALLET_KEY, 'recovered');
    await server.removeDevice(TEST_WALLET_KEY, device.deviceId);
    const reported = vi.fn();
    const stop = onDeviceRemoved(reported);
    await expect(proveAccountChange(USER, { action: 'secure-account' })).resolves.toEqual({
      proof: null,
      reason: 'no-device-share',
    });
    stop();
    expect(reported).toHaveBeenCalledOnce();
    await expect(deviceStore.load(USER)).resolves.toBeNull();
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
      message: expect.stringContaining('is not one of the devices that open your wallet'),
    });
  });
});
