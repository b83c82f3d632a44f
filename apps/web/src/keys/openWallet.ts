import { createWalletShares, DialError, encodeShare } from '@dial/core';
import { generatePrivateKey } from 'viem/accounts';
import { isRouteError } from '../api/client';
import { createWallet, getWallet } from '../api/endpoints';
import type { StoredWallet } from '../api/types';
import { splitId } from './deviceShareRecords';
import { deviceShareStore } from './deviceShareStore';
import { rebuildFromDeviceShare } from './rebuildKey';
import { signWalletProof } from './signWalletProof';
import { withWalletLock } from './walletLock';

/** What opening the wallet is doing, for the status line. */
export type OpenWalletStage = 'opening' | 'creating';

/** An opened wallet: this browser's device share and the server's auth share rebuild its key. */
export interface OpenedWallet {
  address: `0x${string}`;
  /** The split the shares belong to. */
  generation: number;
  /** How recovery is protected, or null when it is not set up. */
  recovery: StoredWallet['recovery'];
}

/**
 * The server has a wallet with recovery set up, but no device share held in this browser rebuilds the key
 * of the split the server holds: the person can recover it here with their recovery password or passkey.
 */
export interface WalletToRecover {
  needsRecovery: true;
  wallet: StoredWallet;
  /**
   * This browser holds a share of an older generation: the shares were replaced elsewhere (recovery on
   * another device, or recovery changed there), so the share here no longer opens the wallet.
   */
  hasOlderShare: boolean;
  /**
   * This browser holds a share of the current generation that belongs to another split (a change started
   * here never reached the server while the keys were replaced elsewhere): it cannot open the wallet and is
   * forgotten once the wallet is recovered here.
   */
  hasMismatchedShare: boolean;
}

/**
 * Opens the signed-in user's wallet, creating it on first sign-in.
 *
 * - No wallet yet: create the key shares, store the device share in this browser FIRST (a wallet the server
 *   knows but whose device share was never kept could not be opened), then register the address and the
 *   auth share. If another tab or device registered a wallet first (409), forget our share and open theirs.
 * - A wallet: rebuild the key from this browser's device share of the split the server holds (named by its
 *   auth share's hash) and the server's auth share, which checks that the two belong to this address; the
 *   key is dropped right after (signing comes later). Device shares of older generations and of other
 *   splits of this generation are then forgotten; NEWER generations are kept, since another tab may have
 *   saved one for a rotation it has not sent yet (it may be waiting for a confirmation code).
 * - No device share that rebuilds it (none held, or only another split's): with recovery set up, the
 *   person can recover the wallet here ({@link WalletToRecover}); without it, `recovery_not_set_up` or
 *   `wallet_mismatch` says the wallet cannot be opened here.
 *
 * Runs under a Web Lock per user, so tabs of this browser never race to create two wallets, nor prune the
 * shares while another tab's rotation is being sent.
 *
 * @param onOpened - Called as soon as the key is rebuilt, before the older shares are forgotten (the
 *   promise settles after that, still under the lock): the wallet can show while this browser tidies up.
 * @throws {DialError} `recovery_not_set_up`, `wallet_mismatch`, or an API error.
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
  const stored = await findWallet();
  if (stored !== null) return checkWallet(userId, stored, onOpened);
  if (!mayCreate) throw new DialError('internal_error', { details: 'wallet not found after a 409' });

  onStage('creating');
  const created = await createAndRegister(userId);
  // Lost the race to another tab or device: open the wallet that won.
  return created ?? openOrCreate(userId, onStage, onOpened, false);
}

async function findWallet(): Promise<StoredWallet | null> {
  try {
    return await getWallet();
  } catch (error) {
    if (isRouteError('getWallet', error, 'wallet_not_found')) return null;
    throw error;
  }
}

async function checkWallet(
  userId: string,
  stored: StoredWallet,
  onOpened: ((wallet: OpenedWallet) => void) | undefined,
): Promise<OpenedWallet | WalletToRecover> {
  // The key itself is not kept: nothing signs yet, and a key that is never stored cannot leak from here.
  const rebuilt = await rebuildFromDeviceShare(userId, stored);
  if (!rebuilt.found) {
    const mismatched = rebuilt.mismatched.length > 0 || rebuilt.otherSplit;
    if (stored.recovery === null) {
      throw new DialError(mismatched ? 'wallet_mismatch' : 'recovery_not_set_up');
    }
    return {
      needsRecovery: true,
      wallet: stored,
      hasOlderShare: rebuilt.older,
      hasMismatchedShare: mismatched,
    };
  }
  const opened = { address: stored.address, generation: stored.generation, recovery: stored.recovery };
  onOpened?.(opened);
  await deviceShareStore.prune(userId, rebuilt.slot, rebuilt.entry);
  return opened;
}

/** Creates the wallet; null when the server already has one (409). */
async function createAndRegister(userId: string): Promise<OpenedWallet | null> {
  const privateKey = generatePrivateKey();
  const { address, deviceShare, authShare, recoveryShare } = await createWalletShares(privateKey);
  try {
    // The recovery share of this first split is not kept: setting up recovery (which the wallet home asks
    // for) makes a new split and stores that split's recovery share, encrypted. Until then the wallet opens
    // only from this browser's device share plus the server's auth share.
    const slot = { address, generation: 1, split: await splitId(authShare) };
    const entry = await deviceShareStore.save(userId, slot, deviceShare);
    try {
      // The key signs the registration, so nobody can register an address whose key they do not hold.
      const proof = await signWalletProof(privateKey, {
        purpose: 'register-wallet',
        userId,
        address,
        fromGeneration: 0,
        authShare,
        recovery: null,
      });
      await createWallet(address, encodeShare(authShare), proof);
    } catch (error) {
      if (isRouteError('registerWallet', error, 'embedded_wallet_already_exists')) {
        await deviceShareStore.discard(userId, entry);
        return null;
      }
      // Other failures keep the saved share: the server may have registered the wallet before the answer
      // was lost, and then opening it again needs this share.
      throw error;
    }
    await deviceShareStore.prune(userId, slot, entry);
    return { address, generation: 1, recovery: null };
  } finally {
    // Best effort: the base64 copy sent to the server and the hex key are strings, which cannot be wiped.
    deviceShare.fill(0);
    authShare.fill(0);
    recoveryShare.fill(0);
  }
}
