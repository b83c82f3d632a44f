import type { Hex } from 'viem';
import { keyFromDevice, type UnlockedWallet } from './rebuildKey';

/**
 * The wallet as the server answers this browser's device now (address, the recovery pair's generation,
 * recovery), and its key rebuilt through the device. The caller uses the key at once and drops it.
 *
 * @throws {DialError} `device_removed`, `device_share_missing`, `wallet_mismatch`, or an API error.
 */
export function currentWalletKey(userId: string): Promise<{ wallet: UnlockedWallet; privateKey: Hex }> {
  return keyFromDevice(userId);
}
