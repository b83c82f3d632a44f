import { bytesToHex, isAddress } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { combineWalletShares } from './combineWalletShares.js';
import { createWalletShares, SHARE_LENGTH, splitWalletKey } from './createWalletShares.js';
import { DialError } from './errors.js';

const HARDHAT_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const HARDHAT_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('createWalletShares', () => {
  it('gives a known private key its known checksummed address', async () => {
    const wallet = await createWalletShares(HARDHAT_KEY);
    expect(wallet.address).toBe(HARDHAT_ADDRESS);
  });

  it('makes three distinct shares of 33 bytes', async () => {
    const { deviceShare, authShare, recoveryShare } = await createWalletShares(HARDHAT_KEY);
    expect(SHARE_LENGTH).toBe(33);
    for (const share of [deviceShare, authShare, recoveryShare]) {
      expect(share).toBeInstanceOf(Uint8Array);
      expect(share).toHaveLength(SHARE_LENGTH);
    }
    expect(deviceShare).not.toEqual(authShare);
    expect(authShare).not.toEqual(recoveryShare);
    expect(deviceShare).not.toEqual(recoveryShare);
  });

  it('does not put the key itself in any share', async () => {
    const wallet = await createWalletShares(HARDHAT_KEY);
    const keyHex = HARDHAT_KEY.slice(2);
    for (const share of [wallet.deviceShare, wallet.authShare, wallet.recoveryShare]) {
      expect(bytesToHex(share)).not.toContain(keyHex);
    }
  });

  it('generates a new key, with a valid checksummed address, when none is given', async () => {
    const first = await createWalletShares();
    const second = await createWalletShares();
    expect(isAddress(first.address, { strict: true })).toBe(true);
    expect(first.address).not.toBe(second.address);
    const key = await combineWalletShares([first.deviceShare, first.recoveryShare], first.address);
    expect(privateKeyToAddress(key)).toBe(first.address);
  });

  it('splits the same key into different shares each time', async () => {
    const first = await createWalletShares(HARDHAT_KEY);
    const second = await createWalletShares(HARDHAT_KEY);
    expect(first.deviceShare).not.toEqual(second.deviceShare);
  });

  it.each([
    ['a key without 0x', HARDHAT_KEY.slice(2)],
    ['a short key', '0x1234'],
    ['a key with non-hex digits', `0x${'g'.repeat(64)}`],
    ['the zero key', `0x${'0'.repeat(64)}`],
    ['a key above the curve order', `0x${'f'.repeat(64)}`],
  ])('refuses %s with invalid_data', async (_label, key) => {
    const attempt = createWalletShares(key as `0x${string}`);
    await expect(attempt).rejects.toThrow(DialError);
    await expect(createWalletShares(key as `0x${string}`)).rejects.toMatchObject({ code: 'invalid_data' });
  });
});

describe('splitWalletKey', () => {
  it('splits a key in two shares of 33 bytes that rebuild it together, and each split afresh', async () => {
    const first = await splitWalletKey(HARDHAT_KEY);
    const second = await splitWalletKey(HARDHAT_KEY);
    expect(first.address).toBe(HARDHAT_ADDRESS);
    for (const share of [first.heldShare, first.authShare]) expect(share).toHaveLength(SHARE_LENGTH);
    expect(await combineWalletShares([first.heldShare, first.authShare], HARDHAT_ADDRESS)).toBe(HARDHAT_KEY);
    expect(await combineWalletShares([second.authShare, second.heldShare], HARDHAT_ADDRESS)).toBe(
      HARDHAT_KEY,
    );
    expect(bytesToHex(first.heldShare)).not.toBe(bytesToHex(second.heldShare));
  });

  it("does not rebuild the key from one split's held share and another split's auth share", async () => {
    const first = await splitWalletKey(HARDHAT_KEY);
    const second = await splitWalletKey(HARDHAT_KEY);
    // Two random lines through the key meet only at x = 0; their points at the shares' x give another secret
    // (or, when the x-coordinates happen to match, cannot be combined): never the key.
    await expect(
      combineWalletShares([first.heldShare, second.authShare], HARDHAT_ADDRESS),
    ).rejects.toMatchObject({ code: 'wallet_mismatch' });
  });

  it('refuses what is not a private key', async () => {
    await expect(splitWalletKey('0x1234')).rejects.toMatchObject({ code: 'invalid_data' });
  });
});
