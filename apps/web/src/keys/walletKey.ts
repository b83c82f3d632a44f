import type { Hex } from 'viem';
import { getWallet } from '../api/endpoints';
import type { StoredWallet } from '../api/types';
import { keyFromDeviceShare } from './rebuildKey';

/**
 * The wallet as the server holds it now, and its key rebuilt with this browser's device share.
 *
 * @throws {DialError} `device_share_missing`, `wallet_mismatch`, or an API error.
 */
export async function currentWalletKey(userId: string): Promise<{ wallet: StoredWallet; privateKey: Hex }> {
  const wallet = await getWallet();
  const privateKey = await keyFromDeviceShare(userId, wallet);
  return { wallet, privateKey };
}
