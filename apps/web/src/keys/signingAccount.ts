import { DialError } from '@dial/core';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { type DeviceUnlock, keyFromUnlock, unlockHeldDevice } from './rebuildKey';

/**
 * The account that signs for the signed-in user's wallet, rebuilt just for one signature through this
 * browser's device: its held share plus the auth share the server gives that device only (its unlock
 * secret), checked against `address`. Callers use it for one request and drop it (the embedded provider's
 * `getAccount` does exactly that).
 *
 * `unlocked` is the device's unlock when the caller started it already (beside other requests, as a send
 * does, see {@link unlockHeldDevice}); without it, it is asked for here.
 *
 * @throws {DialError} `device_removed` (removed on another device), `device_share_missing` (this browser is
 * no device of the wallet), `wallet_mismatch` (the shares do not rebuild `address`'s key, or the server holds
 * another wallet), or an API error.
 */
export async function loadSigningAccount(
  userId: string,
  address: `0x${string}`,
  unlocked: Promise<DeviceUnlock> = unlockHeldDevice(userId),
): Promise<PrivateKeyAccount> {
  const unlock = await unlocked;
  if (unlock.status === 'unlocked' && unlock.wallet.address.toLowerCase() !== address.toLowerCase()) {
    unlock.device.heldShare.fill(0);
    throw new DialError('wallet_mismatch', { details: 'the server holds another wallet' });
  }
  return privateKeyToAccount(await keyFromUnlock(unlock));
}
