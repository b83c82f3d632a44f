import { split } from 'shamir-secret-sharing';
import { type Address, type Hex, hexToBytes } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { DialError } from './errors.js';

/** The length of one key share in bytes: the 32-byte private key plus the share's 1-byte x-coordinate. */
export const SHARE_LENGTH = 33;

/** An embedded wallet's address and the three shares of its private key; any two of them rebuild the key. */
export interface WalletShares {
  /** The wallet's checksummed address. */
  address: Address;
  /** The share kept on the person's device (the browser). */
  deviceShare: Uint8Array;
  /** The share kept by the Dial server, released after sign-in. */
  authShare: Uint8Array;
  /** The share kept for recovery, when one of the two others is lost. */
  recoveryShare: Uint8Array;
}

/**
 * Creates an embedded wallet: generates a secp256k1 private key (unless one is given), derives its address
 * and splits the key 2-of-3 with Shamir's secret sharing, so that any two shares rebuild it and one alone
 * reveals nothing about it. Rebuild it with {@link combineWalletShares}.
 *
 * @param privateKey - A private key to split instead of a new one (`0x` and 64 hex digits), e.g. to import
 * a wallet.
 * @returns The address and the device, auth and recovery shares, each {@link SHARE_LENGTH} bytes.
 * @throws {DialError} `invalid_data` when `privateKey` is not a valid secp256k1 private key.
 *
 * @example
 * ```ts
 * const { address, deviceShare, authShare, recoveryShare } = await createWalletShares();
 * ```
 */
export async function createWalletShares(privateKey?: Hex): Promise<WalletShares> {
  const { address, shares } = await splitKey(privateKey ?? generatePrivateKey(), 3);
  const [deviceShare, authShare, recoveryShare] = shares;
  if (deviceShare === undefined || authShare === undefined || recoveryShare === undefined) {
    throw new DialError('internal_error', { details: `split returned ${shares.length} shares, expected 3` });
  }
  return { address, deviceShare, authShare, recoveryShare };
}

/** A wallet key split in two: a share one holder keeps, and the auth share the server keeps for it. */
export interface ShareHalves {
  /** The wallet's checksummed address. */
  address: Address;
  /** The share the browser keeps: a device's share, or (encrypted) the recovery share. */
  heldShare: Uint8Array;
  /** The share the server keeps for that holder, released only to it. */
  authShare: Uint8Array;
}

/**
 * Splits a wallet's key 2-of-2 with Shamir's secret sharing, afresh for one holder: a device (each device of a
 * wallet has a split of its own, so removing one device's auth share leaves its held share opening nothing),
 * or the recovery share. Both shares are needed; either alone reveals nothing about the key, and shares of
 * two different splits do not combine. Rebuild it with {@link combineWalletShares}.
 *
 * @param privateKey - The wallet's key (`0x` and 64 hex digits).
 * @returns The address, the held share and the auth share, each {@link SHARE_LENGTH} bytes.
 * @throws {DialError} `invalid_data` when `privateKey` is not a valid secp256k1 private key.
 *
 * @example
 * ```ts
 * const { heldShare, authShare } = await splitWalletKey(privateKey); // a new device's pair
 * ```
 */
export async function splitWalletKey(privateKey: Hex): Promise<ShareHalves> {
  const { address, shares } = await splitKey(privateKey, 2);
  const [heldShare, authShare] = shares;
  if (heldShare === undefined || authShare === undefined) {
    throw new DialError('internal_error', { details: `split returned ${shares.length} shares, expected 2` });
  }
  return { address, heldShare, authShare };
}

/** Checks `key`, derives its address and splits it into `count` shares of which any two rebuild it. */
async function splitKey(key: Hex, count: 2 | 3): Promise<{ address: Address; shares: Uint8Array[] }> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new DialError('invalid_data', { details: 'private key must be 0x followed by 64 hex digits' });
  }
  let address: Address;
  try {
    address = privateKeyToAddress(key);
  } catch (error) {
    // Zero, or not below the curve order.
    throw new DialError('invalid_data', {
      details: 'private key is not a valid secp256k1 key',
      cause: error,
    });
  }

  const keyBytes = hexToBytes(key);
  try {
    return { address, shares: await split(keyBytes, count, 2) };
  } finally {
    // Best effort only: this clears our copy of the key bytes, but the hex string `key` cannot be wiped
    // (JavaScript strings are immutable) and the engine may have copied either elsewhere.
    keyBytes.fill(0);
  }
}
