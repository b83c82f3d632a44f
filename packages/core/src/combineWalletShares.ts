import { combine } from 'shamir-secret-sharing';
import { bytesToHex, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { DialError } from './errors.js';

/**
 * Rebuilds an embedded wallet's private key from two of its three shares (see {@link createWalletShares}) and
 * checks that it is the key of `expectedAddress`.
 *
 * Shamir's secret sharing has no integrity check: two shares of different wallets, or a corrupted share,
 * combine without error into some other 32 bytes. Comparing the rebuilt key's address with the wallet's is
 * what catches that, so the result can be trusted to be this wallet's key.
 *
 * @param shares - Two distinct shares of the same wallet, in any order.
 * @param expectedAddress - The wallet's address (compared case-insensitively).
 * @returns The private key as `0x` and 64 hex digits.
 * @throws {DialError} `wallet_mismatch` when the shares do not rebuild the key of `expectedAddress`: shares
 * of different wallets, a corrupted share, the same share twice, or shares of different lengths.
 *
 * @example
 * ```ts
 * const wallet = await createWalletShares();
 * const key = await combineWalletShares([wallet.deviceShare, wallet.authShare], wallet.address);
 * ```
 */
export async function combineWalletShares(
  shares: readonly [Uint8Array, Uint8Array],
  expectedAddress: string,
): Promise<Hex> {
  let secret: Uint8Array;
  try {
    secret = await combine([shares[0], shares[1]]);
  } catch (error) {
    throw new DialError('wallet_mismatch', { details: 'the shares could not be combined', cause: error });
  }
  try {
    if (secret.length !== 32) {
      throw new DialError('wallet_mismatch', {
        details: `combined secret has ${secret.length} bytes, not 32`,
      });
    }
    const privateKey = bytesToHex(secret);
    let address: string;
    try {
      address = privateKeyToAddress(privateKey);
    } catch (error) {
      throw new DialError('wallet_mismatch', {
        details: 'combined secret is not a private key',
        cause: error,
      });
    }
    if (address.toLowerCase() !== expectedAddress.toLowerCase()) {
      throw new DialError('wallet_mismatch', { details: 'combined key belongs to another address' });
    }
    return privateKey;
  } finally {
    // Best effort, as in createWalletShares: the returned hex string cannot be wiped.
    secret.fill(0);
  }
}
