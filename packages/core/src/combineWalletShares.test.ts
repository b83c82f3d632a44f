import { describe, expect, it } from 'vitest';
import { combineWalletShares } from './combineWalletShares.js';
import { createWalletShares } from './createWalletShares.js';
import { DialError } from './errors.js';

const HARDHAT_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const HARDHAT_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

async function expectMismatch(attempt: Promise<unknown>): Promise<void> {
  const error = await attempt.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DialError);
  expect((error as DialError).code).toBe('wallet_mismatch');
  expect((error as DialError).status).toBe(409);
}

describe('combineWalletShares', () => {
  it.each([
    ['device + auth', 'deviceShare', 'authShare'],
    ['auth + device', 'authShare', 'deviceShare'],
    ['device + recovery', 'deviceShare', 'recoveryShare'],
    ['auth + recovery', 'authShare', 'recoveryShare'],
  ] as const)('rebuilds the key from %s', async (_label, first, second) => {
    const wallet = await createWalletShares(HARDHAT_KEY);
    await expect(combineWalletShares([wallet[first], wallet[second]], HARDHAT_ADDRESS)).resolves.toBe(
      HARDHAT_KEY,
    );
  });

  it('compares the address case-insensitively', async () => {
    const wallet = await createWalletShares(HARDHAT_KEY);
    const shares = [wallet.deviceShare, wallet.authShare] as const;
    await expect(combineWalletShares(shares, HARDHAT_ADDRESS.toLowerCase())).resolves.toBe(HARDHAT_KEY);
    await expect(
      combineWalletShares(shares, HARDHAT_ADDRESS.toUpperCase().replace('0X', '0x')),
    ).resolves.toBe(HARDHAT_KEY);
  });

  it('leaves the shares it was given untouched', async () => {
    const wallet = await createWalletShares(HARDHAT_KEY);
    const before = [Uint8Array.from(wallet.deviceShare), Uint8Array.from(wallet.authShare)];
    await combineWalletShares([wallet.deviceShare, wallet.authShare], HARDHAT_ADDRESS);
    expect([wallet.deviceShare, wallet.authShare]).toEqual(before);
  });

  it('refuses shares of two different wallets with wallet_mismatch', async () => {
    // One share of a wallet, however it is paired, does not rebuild that wallet's key.
    const mine = await createWalletShares(HARDHAT_KEY);
    const other = await createWalletShares(OTHER_KEY);
    await expectMismatch(combineWalletShares([mine.deviceShare, other.authShare], mine.address));
    await expectMismatch(combineWalletShares([mine.deviceShare, other.authShare], other.address));
  });

  it('refuses a tampered share with wallet_mismatch', async () => {
    const wallet = await createWalletShares(HARDHAT_KEY);
    const tampered = Uint8Array.from(wallet.authShare);
    tampered[5] = (tampered[5] ?? 0) ^ 0x01;
    await expectMismatch(combineWalletShares([wallet.deviceShare, tampered], wallet.address));
  });

  it('refuses shares that rebuild another wallet than the expected one', async () => {
    const wallet = await createWalletShares(HARDHAT_KEY);
    const other = await createWalletShares(OTHER_KEY);
    await expectMismatch(combineWalletShares([wallet.deviceShare, wallet.authShare], other.address));
  });

  it('refuses the same share twice with wallet_mismatch', async () => {
    const wallet = await createWalletShares(HARDHAT_KEY);
    await expectMismatch(combineWalletShares([wallet.deviceShare, wallet.deviceShare], wallet.address));
  });

  it('refuses a truncated share with wallet_mismatch', async () => {
    const wallet = await createWalletShares(HARDHAT_KEY);
    await expectMismatch(
      combineWalletShares([wallet.deviceShare, wallet.authShare.slice(0, 20)], wallet.address),
    );
  });

  it('refuses an empty share with wallet_mismatch', async () => {
    const wallet = await createWalletShares(HARDHAT_KEY);
    await expectMismatch(combineWalletShares([wallet.deviceShare, new Uint8Array()], wallet.address));
  });

  it('after a rotation (a new split of the same key), an old share no longer combines with a new one', async () => {
    const before = await createWalletShares(HARDHAT_KEY);
    const key = await combineWalletShares([before.deviceShare, before.authShare], HARDHAT_ADDRESS);
    const after = await createWalletShares(key);
    expect(after.address).toBe(HARDHAT_ADDRESS);
    // The new split works on its own, with any two of its shares…
    await expect(combineWalletShares([after.deviceShare, after.authShare], HARDHAT_ADDRESS)).resolves.toBe(
      HARDHAT_KEY,
    );
    await expect(combineWalletShares([after.recoveryShare, after.authShare], HARDHAT_ADDRESS)).resolves.toBe(
      HARDHAT_KEY,
    );
    // …but the old device or recovery share and the new auth share rebuild nothing: an old browser (or
    // an old recovery share) must be recovered again.
    await expectMismatch(combineWalletShares([before.deviceShare, after.authShare], HARDHAT_ADDRESS));
    await expectMismatch(combineWalletShares([before.recoveryShare, after.authShare], HARDHAT_ADDRESS));
    await expectMismatch(combineWalletShares([after.deviceShare, before.authShare], HARDHAT_ADDRESS));
  });
});
