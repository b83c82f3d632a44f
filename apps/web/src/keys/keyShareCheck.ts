import { decodeShare } from '@dial/core';
import { getWallet } from '../api/endpoints';
import { splitId } from './deviceShareRecords';
import { deviceShareStore } from './deviceShareStore';

/**
 * What a browser whose shares were replaced elsewhere (a recovery, or a recovery change, on another device)
 * is told: the share it holds is of the old keys.
 */
export const KEYS_CHANGED_MESSAGE =
  "Your wallet's keys were changed on another device. Recover here to keep using this browser.";

/**
 * Whether this browser still holds a device share of the split the server holds now (GET /api/wallet): a
 * cheap check (a hash of the auth share and a look-up, no decryption, no key rebuilt), made when the page
 * comes back into view, when the live stream says the keys changed, and before anything is signed. False
 * means the keys were replaced elsewhere: the wallet cannot sign here until it is recovered here.
 *
 * @throws {DialError} an API error (the caller keeps what it shows).
 */
export async function holdsCurrentShare(userId: string): Promise<boolean> {
  const wallet = await getWallet();
  const authShare = decodeShare(wallet.authShare);
  try {
    const slot = { address: wallet.address, generation: wallet.generation, split: await splitId(authShare) };
    const { candidates } = await deviceShareStore.lookup(userId, slot);
    return candidates.length > 0;
  } finally {
    authShare.fill(0);
  }
}

type Listener = () => void;
const listeners = new Set<Listener>();

/**
 * Listens for a signing that found no device share of the server's split here (the keys were replaced
 * elsewhere since the last check): the wallet screen then leads to recovery.
 *
 * @returns A function that stops listening.
 */
export function onKeysChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Tells the listeners that this browser's share no longer opens the wallet. */
export function reportKeysChanged(): void {
  for (const listener of [...listeners]) listener();
}
