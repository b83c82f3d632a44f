import { combineWalletShares, DialError, decodeShare } from '@dial/core';
import type { Hex } from 'viem';
import type { Answer } from '../api/client';
import { isRouteError } from '../api/client';
import { unlockDevice } from './deviceApi';
import { DEVICE_REMOVED_MESSAGE, markDeviceRemoved, reportDeviceRemoved } from './deviceRemoval';
import { deviceStore, type HeldDevice } from './deviceStore';

/** `POST /api/wallet/devices/:id/unlock`'s answer: the wallet, and this device's auth share. */
export type UnlockedWallet = Answer<'unlockDevice'>;

/** What unlocking this browser's device gave, before the key is rebuilt. */
export type DeviceUnlock =
  /** The server gave the device's auth share: {@link keyFromUnlocked} rebuilds the key (and wipes both). */
  | { status: 'unlocked'; device: HeldDevice; wallet: UnlockedWallet }
  /** The device was removed on another device: its entry here is forgotten. */
  | { status: 'removed'; deviceId: string }
  /** No device kept here for this user (or one the server does not know, now forgotten). */
  | { status: 'none' };

/**
 * Asks the server for this browser's device's auth share, with the device's unlock secret (one request,
 * which answers the wallet too). A device the server says was removed, or does not know, is forgotten: its
 * held share opens nothing any more.
 *
 * @throws {DialError} an API error other than those two (the entry is kept: the server may answer later).
 */
export async function unlockHeldDevice(userId: string): Promise<DeviceUnlock> {
  const device = await deviceStore.load(userId);
  if (device === null) return { status: 'none' };
  try {
    return { status: 'unlocked', device, wallet: await unlockDevice(device.deviceId, device.secret) };
  } catch (error) {
    device.heldShare.fill(0);
    const removed = isRouteError('unlockDevice', error, 'device_removed');
    if (!removed && !isRouteError('unlockDevice', error, 'device_not_found')) throw error;
    await deviceStore.forget(userId, device.deviceId);
    if (removed) markDeviceRemoved(userId);
    return removed ? { status: 'removed', deviceId: device.deviceId } : { status: 'none' };
  }
}

/**
 * The key rebuilt from an unlocked device: its held share and the auth share the server answered, checked
 * against the answered address. Wipes both shares.
 *
 * @throws {DialError} `wallet_mismatch` when they do not rebuild that address's key.
 */
export async function keyFromUnlocked(unlocked: {
  device: HeldDevice;
  wallet: UnlockedWallet;
}): Promise<Hex> {
  const authShare = decodeShare(unlocked.wallet.authShare);
  try {
    return await combineWalletShares([unlocked.device.heldShare, authShare], unlocked.wallet.address);
  } finally {
    unlocked.device.heldShare.fill(0);
    authShare.fill(0);
  }
}

/**
 * The wallet as the server answers this device now, and its key rebuilt through this browser's device. The
 * caller uses the key at once and drops it.
 *
 * @throws {DialError} from {@link keyFromUnlock}, or an API error.
 */
export async function keyFromDevice(userId: string): Promise<{ wallet: UnlockedWallet; privateKey: Hex }> {
  const unlocked = await unlockHeldDevice(userId);
  if (unlocked.status !== 'unlocked') return notUnlocked(unlocked);
  return { wallet: unlocked.wallet, privateKey: await keyFromUnlocked(unlocked) };
}

/**
 * The key from what {@link unlockHeldDevice} gave.
 *
 * @throws {DialError} `device_removed` (this browser was removed: reported to the wallet screen first, see
 * {@link reportDeviceRemoved}), `device_share_missing` (no device here), `wallet_mismatch`.
 */
export async function keyFromUnlock(unlocked: DeviceUnlock): Promise<Hex> {
  if (unlocked.status === 'unlocked') return keyFromUnlocked(unlocked);
  return notUnlocked(unlocked);
}

function notUnlocked(unlocked: Exclude<DeviceUnlock, { status: 'unlocked' }>): never {
  if (unlocked.status === 'removed') {
    reportDeviceRemoved();
    throw new DialError('device_removed', { message: `${DEVICE_REMOVED_MESSAGE} ${REMOVED_WAYS_FORWARD}` });
  }
  throw new DialError('device_share_missing', { message: NO_DEVICE_MESSAGE });
}

/** What a removed browser can do. */
export const REMOVED_WAYS_FORWARD =
  'Recover your wallet here with your recovery password or passkey, or add this browser again from a device that opens it (Settings › Devices › Add a device, on that device).';

/** Why a browser that is no device of the wallet cannot sign. */
export const NO_DEVICE_MESSAGE =
  'This browser is not one of the devices that open your wallet. Add it from a device that does (Settings › Devices › Add a device, on that device), or recover your wallet here.';
