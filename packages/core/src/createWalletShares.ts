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
  const key = privateKey ?? generatePrivateKey();
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
  let shares: Uint8Array[];
  try {
    shares = await split(keyBytes, 3, 2);
  } finally {
    // Best effort only: this clears our copy of the key bytes, but the hex string `key` cannot be wiped
    // (JavaScript strings are immutable) and the engine may have copied either elsewhere.
    keyBytes.fill(0);
  }
  const [deviceShare, authShare, recoveryShare] = shares;
  if (deviceShare === undefined || authShare === undefined || recoveryShare === undefined) {
    throw new DialError('internal_error', { details: `split returned ${shares.length} shares, expected 3` });
  }
  return { address, deviceShare, authShare, recoveryShare };
}
