import {
  combineWalletShares,
  DialError,
  decodeShare,
  encodeShare,
  isDialError,
  splitWalletKey,
} from '@dial/core';
import type { Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { isRouteError } from '../api/client';
import { createWallet, getWallet } from '../api/endpoints';
import type { StoredWallet } from '../api/types';
import { wasDeviceRemoved } from './deviceRemoval';
import { deviceStore } from './deviceStore';
import { completePendingDevice, enrollThisBrowser } from './enrollDevice';
import { legacyShares } from './legacyShares';
import { keyFromUnlocked, unlockHeldDevice } from './rebuildKey';
import { signWalletProof } from './signWalletProof';
import { withWalletLock } from './walletLock';

/** What opening the wallet is doing, for the status line. */
export type OpenWalletStage = 'opening' | 'creating';

/** An opened wallet: this browser's device rebuilt its key. */
export interface OpenedWallet {
  address: `0x${string}`;
  /** The recovery pair's generation. */
  generation: number;
  /** How recovery is protected, or null when it is not set up. */
  recovery: StoredWallet['recovery'];
  /** This browser's device. */
  deviceId: string;
}

/**
 * The server has a wallet, but this browser is not one of its devices (a new browser, cleared data, or
 * removed on another device): it can recover the wallet here with the recovery password or passkey (when
 * `wallet.recovery` is set up), or be added from a device that opens it (Settings › Devices › Add a device,
 * on that device). No other device is touched either way.
 */
export interface WalletToRecover {
  needsRecovery: true;
  wallet: StoredWallet;
  /**
   * This browser was one of the wallet's devices, and was removed on another (its entry is forgotten: this
   * opening, or an earlier one or signing of this page, found it removed).
   */
  removed: boolean;
}

/**
 * Opens the signed-in user's wallet, creating it on first sign-in.
 *
 * - A device kept here: one request unlocks it (`POST /api/wallet/devices/:id/unlock`, with its secret),
 *   which answers the wallet and the device's auth share; with the held share it rebuilds the key, checked
 *   against the address, and the key is dropped (signing rebuilds it again). `device_removed`: the device
 *   is forgotten and the person is told ({@link WalletToRecover} `removed`); `device_not_found`: forgotten,
 *   as if none were kept.
 * - No device here, and the server has a wallet: a device this browser registered or enrolled whose answer
 *   was lost is completed ({@link completePendingDevice}); a wallet registered before devices
 *   (`legacyAuthShare`) whose share this browser kept from then is adopted: this browser enrolls as its
 *   device (`how: adopted`) and the old entries are deleted. Otherwise {@link WalletToRecover}.
 * - No wallet: {@link createAndRegister}. If another tab or device registered one first (409), open that.
 *
 * Runs under a Web Lock per user, so tabs of this browser never create two wallets nor enroll twice.
 *
 * @param onOpened - Called as soon as the key is rebuilt, before what is left is tidied up.
 * @throws {DialError} `wallet_mismatch` (this device's shares rebuild another key), or an API error.
 */
export function openWallet(
  userId: string,
  onStage: (stage: OpenWalletStage) => void,
  onOpened?: (wallet: OpenedWallet) => void,
): Promise<OpenedWallet | WalletToRecover> {
  return withWalletLock(userId, () => openOrCreate(userId, onStage, onOpened, true));
}

async function openOrCreate(
  userId: string,
  onStage: (stage: OpenWalletStage) => void,
  onOpened: ((wallet: OpenedWallet) => void) | undefined,
  mayCreate: boolean,
): Promise<OpenedWallet | WalletToRecover> {
  onStage('opening');
  const unlocked = await unlockHeldDevice(userId);
  if (unlocked.status === 'unlocked') {
    const { wallet, device } = unlocked;
    await keyFromUnlocked(unlocked);
    const opened: OpenedWallet = {
      address: wallet.address,
      generation: wallet.generation,
      recovery: wallet.recovery,
      deviceId: device.deviceId,
    };
    onOpened?.(opened);
    // Shares kept before devices that a recovery or link made useless.
    await legacyShares.forget(userId);
    return opened;
  }

  const stored = await findWallet();
  if (stored === null) {
    if (!mayCreate) throw new DialError('internal_error', { details: 'wallet not found after a 409' });
    onStage('creating');
    const created = await createAndRegister(userId);
    // Lost the race to another tab or device: open the wallet that won.
    return created ?? openOrCreate(userId, onStage, onOpened, false);
  }
  if (unlocked.status === 'none') {
    // A device whose registration or enrolment answer was lost, or a wallet from before devices.
    if ((await completePendingDevice(userId, stored.address)) || (await adoptLegacyShare(userId, stored))) {
      return openOrCreate(userId, onStage, onOpened, false);
    }
  }
  const removed = unlocked.status === 'removed' || wasDeviceRemoved(userId);
  return { needsRecovery: true, wallet: stored, removed };
}

async function findWallet(): Promise<StoredWallet | null> {
  try {
    return await getWallet();
  } catch (error) {
    if (isRouteError('getWallet', error, 'wallet_not_found')) return null;
    throw error;
  }
}

/**
 * A wallet registered before devices: while the server still has its one split (`legacyAuthShare`), the
 * device share this browser kept of it rebuilds the key, and this browser enrolls as a device
 * (`how: adopted`); the old entries are then deleted.
 *
 * @returns whether this browser is now a device.
 */
async function adoptLegacyShare(userId: string, stored: StoredWallet): Promise<boolean> {
  if (stored.legacyAuthShare === null) return false;
  const shares = await legacyShares.load(userId, stored.address);
  if (shares.length === 0) return false;
  const authShare = decodeShare(stored.legacyAuthShare);
  let privateKey: Hex | null = null;
  try {
    for (const share of shares) {
      try {
        privateKey = await combineWalletShares([share, authShare], stored.address);
        break;
      } catch (error) {
        if (!isDialError(error, 'wallet_mismatch')) throw error;
      }
    }
  } finally {
    for (const share of shares) share.fill(0);
    authShare.fill(0);
  }
  if (privateKey === null) return false;
  await enrollThisBrowser(userId, privateKey, stored, 'adopted');
  await legacyShares.forget(userId);
  return true;
}

/**
 * Creates the wallet: a new key, split twice: this device's pair (held share kept here, auth share to the
 * server) and the recovery pair, of which only the auth share goes to the server (its held share is not
 * kept: setting up recovery, which the wallet home asks for, makes a new recovery pair and keeps that one's
 * encrypted). The key signs the registration (proof `register-wallet`, binding both auth shares and the
 * device's secret hash), so nobody registers an address whose key they do not hold.
 *
 * The device is kept here as pending BEFORE the request and becomes the device once the server names its
 * id: a wallet the server registered whose answer was lost is then completed at the next opening
 * ({@link completePendingDevice}), never left without a device here.
 *
 * @returns the wallet; null when the server already has one (409).
 */
async function createAndRegister(userId: string): Promise<OpenedWallet | null> {
  const privateKey = generatePrivateKey();
  const device = await splitWalletKey(privateKey);
  const recoveryPair = await splitWalletKey(privateKey);
  recoveryPair.heldShare.fill(0);
  const { address } = device;
  const { secret, secretHash } = await deviceStore.newSecret();
  try {
    await deviceStore.savePending(userId, { address, secret, secretHash, heldShare: device.heldShare });
    let deviceId: string;
    try {
      const proof = await signWalletProof(privateKey, {
        purpose: 'register-wallet',
        userId,
        address,
        fromGeneration: 0,
        authShare: recoveryPair.authShare,
        recovery: null,
        device: { authShare: device.authShare, secretHash },
      });
      const answer = await createWallet({
        address,
        authShare: encodeShare(recoveryPair.authShare),
        device: { authShare: encodeShare(device.authShare), secretHash },
        proof,
      });
      deviceId = answer.device.id;
    } catch (error) {
      if (isRouteError('registerWallet', error, 'embedded_wallet_already_exists')) {
        await deviceStore.forgetPending(userId, secretHash);
        return null;
      }
      // Other failures keep the pending device: the server may have registered the wallet before the
      // answer was lost, and then only this device opens it.
      throw error;
    }
    await deviceStore.save(userId, { deviceId, address, secret, heldShare: device.heldShare });
    await deviceStore.forgetPending(userId, secretHash);
    await legacyShares.forget(userId);
    return { address, generation: 1, recovery: null, deviceId };
  } finally {
    // Best effort: the base64 copies sent to the server and the hex key are strings, which cannot be wiped.
    device.heldShare.fill(0);
    device.authShare.fill(0);
    recoveryPair.authShare.fill(0);
  }
}
