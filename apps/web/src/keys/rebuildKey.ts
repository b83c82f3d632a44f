import { combineWalletShares, DialError, decodeShare, isDialError } from '@dial/core';
import type { Hex } from 'viem';
import { type ShareSlot, splitId } from './deviceShareRecords';
import { deviceShareStore } from './deviceShareStore';
import { KEYS_CHANGED_MESSAGE, reportKeysChanged } from './keyShareCheck';

/** The key rebuilt from this browser's device share of the server's split. */
export interface KeyRebuilt {
  found: true;
  privateKey: Hex;
  /** The server's split. */
  slot: ShareSlot;
  /** The entry whose device share rebuilt the key. */
  entry: string;
}

/** No device share held here rebuilds the key of the server's split. */
export interface NoMatchingShare {
  found: false;
  slot: ShareSlot;
  /** A share of an older generation is held: the keys were replaced elsewhere. */
  older: boolean;
  /**
   * Entries of the server's generation that are of another split or do not rebuild its key (two splits
   * of one generation: an unfinished change here while the keys were replaced elsewhere).
   */
  mismatched: string[];
  /** A share of another split of the server's generation is held (named, so not even tried). */
  otherSplit: boolean;
}

/**
 * Rebuilds the wallet's key from this browser's device share of the split the server holds (`wallet`, as
 * GET /api/wallet or its export returns it) and the server's auth share, checked against the address.
 * Tries the entry named by the auth share's split id first, then entries written before split ids; an
 * entry that decrypts but rebuilds another key is reported, not thrown. The caller uses the key at once
 * and drops it.
 */
export async function rebuildFromDeviceShare(
  userId: string,
  wallet: { address: string; generation: number; authShare: string },
): Promise<KeyRebuilt | NoMatchingShare> {
  const authShare = decodeShare(wallet.authShare);
  try {
    const slot: ShareSlot = {
      address: wallet.address,
      generation: wallet.generation,
      split: await splitId(authShare),
    };
    const { candidates, older, otherSplit } = await deviceShareStore.lookup(userId, slot);
    const mismatched: string[] = [];
    for (const entry of candidates) {
      const deviceShare = await deviceShareStore.load(userId, entry);
      if (deviceShare === null) continue;
      try {
        const privateKey = await combineWalletShares([deviceShare, authShare], wallet.address);
        return { found: true, privateKey, slot, entry };
      } catch (error) {
        if (!isDialError(error, 'wallet_mismatch')) throw error;
        mismatched.push(entry);
      } finally {
        deviceShare.fill(0);
      }
    }
    return { found: false, slot, older, mismatched, otherSplit };
  } finally {
    authShare.fill(0);
  }
}

/**
 * The wallet's private key, rebuilt with this browser's device share of the server's split.
 *
 * @throws {DialError} `device_share_missing` (none held; saying the keys were changed elsewhere when an older
 * share is held), `wallet_mismatch` (a share of that generation is held but belongs to another split). Either
 * is reported first ({@link reportKeysChanged}).
 */
export async function keyFromDeviceShare(
  userId: string,
  wallet: { address: string; generation: number; authShare: string },
): Promise<Hex> {
  const rebuilt = await rebuildFromDeviceShare(userId, wallet);
  if (rebuilt.found) return rebuilt.privateKey;
  // The wallet screen checks again and leads to recovery.
  reportKeysChanged();
  if (rebuilt.mismatched.length > 0 || rebuilt.otherSplit) throw new DialError('wallet_mismatch');
  throw new DialError(
    'device_share_missing',
    rebuilt.older ? { message: KEYS_CHANGED_MESSAGE, details: 'keys replaced elsewhere' } : {},
  );
}
