import { combineWalletShares, DialError, decodeShare } from '@dial/core';
import type { Hex } from 'viem';
import { getWallet } from '../api/endpoints';
import type { StoredWallet } from '../api/types';
import { deviceShareStore } from '../wallet/deviceShareStore';

/**
 * Rebuilds the wallet's private key from this browser's device share (of the server's current generation)
 * and the given auth share, checked against the address. The caller uses the key at once and drops it.
 *
 * @throws {DialError} `device_share_missing`, `wallet_mismatch`.
 */
export async function keyFromDeviceShare(
  userId: string,
  address: string,
  generation: number,
  authShareBase64: string,
): Promise<Hex> {
  const deviceShare = await deviceShareStore.load(userId, address, generation);
  if (deviceShare === null) throw new DialError('device_share_missing');
  const authShare = decodeShare(authShareBase64);
  try {
    return await combineWalletShares([deviceShare, authShare], address);
  } finally {
    deviceShare.fill(0);
    authShare.fill(0);
  }
}

/** The wallet as the server holds it now, and its key rebuilt with this browser's device share. */
export async function currentWalletKey(userId: string): Promise<{ wallet: StoredWallet; privateKey: Hex }> {
  const wallet = await getWallet();
  const privateKey = await keyFromDeviceShare(userId, wallet.address, wallet.generation, wallet.authShare);
  return { wallet, privateKey };
}
