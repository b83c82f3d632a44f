import { DialError } from '@dial/core';
import type { LocalAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getWallet } from '../api/endpoints';
import type { StoredWallet } from '../api/types';
import { keyFromDeviceShare } from './rebuildKey';

/**
 * The account that signs for the signed-in user's wallet, rebuilt just for one signature: this browser's
 * device share plus the auth share the server gives the owner's session, checked against `address`.
 * Callers use it for one request and drop it (the embedded provider's `getAccount` does exactly that).
 *
 * The device share is the one of the split the server holds now: after a rotation on another device
 * this browser has none (`device_share_missing`) until the wallet is recovered here.
 *
 * `stored` is GET /api/wallet's answer when the caller asked for it already (beside other requests, as a
 * send does); without it, it is asked for here. Either way every check below is made on it.
 *
 * @throws {DialError} `device_share_missing`, `wallet_mismatch` (the shares do not rebuild `address`'s key),
 * or an API error.
 */
export async function loadSigningAccount(
  userId: string,
  address: `0x${string}`,
  stored: Promise<StoredWallet> = getWallet(),
): Promise<LocalAccount> {
  const wallet = await stored;
  if (wallet.address.toLowerCase() !== address.toLowerCase()) {
    throw new DialError('wallet_mismatch', { details: 'the server holds another wallet' });
  }
  return privateKeyToAccount(await keyFromDeviceShare(userId, wallet));
}
