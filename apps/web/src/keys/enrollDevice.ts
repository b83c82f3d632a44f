import { encodeShare, isDialError, splitWalletKey } from '@dial/core';
import type { Hex } from 'viem';
import type { Answer } from '../api/client';
import { enrollDevice, listDevices, unlockDevice } from './deviceApi';
import { deviceStore, type PendingDevice } from './deviceStore';
import { keyFromUnlocked } from './rebuildKey';
import { signWalletProof } from './signWalletProof';

/** A device of the wallet, as the server answers it. */
export type DeviceInfo = Answer<'enrollDevice'>['device'];

/**
 * Makes this browser one more device of the wallet whose key it holds now (recovered here, or rebuilt from
 * a share kept before devices): a new split of the key of its own, and a new unlock secret. Only the key
 * adds a device: the proof (purpose `enroll-device`, the recovery pair's `generation` as read) binds the
 * new auth share and the secret's hash. No other device, and not the recovery pair, changes.
 *
 * The held share and secret are kept here as a pending device BEFORE the request, and become the device
 * once the server names it; should the answer be lost, {@link completePendingDevice} finds the device the
 * server made by its secret at the next opening.
 *
 * Run under the wallet's Web Lock (two tabs must not enroll twice).
 *
 * @throws {DialError} `devices_limit_reached`, a proof error, or an API error (nothing kept then but the
 * pending device, for a lost answer).
 */
export async function enrollThisBrowser(
  userId: string,
  privateKey: Hex,
  wallet: { address: string; generation: number },
  how: 'recovered' | 'adopted',
): Promise<DeviceInfo> {
  const { address, heldShare, authShare } = await splitWalletKey(privateKey);
  const { secret, secretHash } = await deviceStore.newSecret();
  try {
    await deviceStore.savePending(userId, { address, secret, secretHash, heldShare });
    const proof = await signWalletProof(privateKey, {
      purpose: 'enroll-device',
      userId,
      address,
      fromGeneration: wallet.generation,
      authShare: null,
      recovery: null,
      device: { authShare, secretHash },
    });
    let device: DeviceInfo;
    try {
      ({ device } = await enrollDevice({
        address,
        how,
        device: { authShare: encodeShare(authShare), secretHash },
        proof,
      }));
    } catch (error) {
      // Refused: the server made no device with this secret. Otherwise (no answer) it may have.
      if (isDialError(error) && error.status < 500 && error.code !== 'network_error') {
        await deviceStore.forgetPending(userId, secretHash);
      }
      throw error;
    }
    await deviceStore.save(userId, { deviceId: device.id, address, secret, heldShare });
    await deviceStore.forgetPending(userId, secretHash);
    return device;
  } finally {
    heldShare.fill(0);
    authShare.fill(0);
  }
}

/**
 * Completes a device this browser registered or enrolled whose answer was lost: finds, among the wallet's
 * devices (newest first), the one this browser's pending secret unlocks, checks that the pending held share
 * rebuilds the key with its auth share, and keeps it as this browser's device. A pending device of another
 * wallet, or one no device of the wallet is (the server never made it), is forgotten.
 *
 * @returns whether this browser is now a device of `address`'s wallet.
 */
export async function completePendingDevice(userId: string, address: string): Promise<boolean> {
  const pending = await deviceStore.loadPending(userId);
  if (pending === null) return false;
  try {
    if (pending.address.toLowerCase() === address.toLowerCase()) {
      const devices = await listDevices();
      const newestFirst = [...devices].sort((a, b) => b.enrolledAt.localeCompare(a.enrolledAt));
      for (const candidate of newestFirst) {
        if (await adoptPending(userId, pending, candidate.id)) return true;
      }
    }
    await deviceStore.forgetPending(userId, pending.secretHash);
    return false;
  } finally {
    pending.heldShare.fill(0);
  }
}

/** Whether `pending` is device `deviceId` (its secret unlocks it, and its share rebuilds the key): then kept. */
async function adoptPending(userId: string, pending: PendingDevice, deviceId: string): Promise<boolean> {
  let wallet: Answer<'unlockDevice'>;
  try {
    wallet = await unlockDevice(deviceId, pending.secret);
  } catch (error) {
    if (isDialError(error, 'device_not_found') || isDialError(error, 'device_removed')) return false;
    throw error;
  }
  const heldShare = new Uint8Array(pending.heldShare);
  try {
    // Rebuilding checks the share against the address; the key itself is dropped at once.
    await keyFromUnlocked({ device: { deviceId, ...pending, heldShare: new Uint8Array(heldShare) }, wallet });
  } catch (error) {
    if (isDialError(error, 'wallet_mismatch')) return false;
    throw error;
  }
  try {
    await deviceStore.save(userId, { deviceId, address: wallet.address, secret: pending.secret, heldShare });
  } finally {
    heldShare.fill(0);
  }
  await deviceStore.forgetPending(userId, pending.secretHash);
  return true;
}
