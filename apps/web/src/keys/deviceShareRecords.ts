/**
 * The device shares this browser kept before devices (issue 28): one entry per split of the wallet's key,
 * in store `shares` of database `dial`, per user id. They are read only to adopt a wallet registered before
 * devices (`openWallet.ts`: the share that combines with the server's `legacyAuthShare` enrolls this browser
 * as a device), then deleted. Kept apart from IndexedDB so it can be tested on its own.
 *
 * Entries were keyed `address#generation#split` (before that `address#generation`, and before generations
 * the lower-case address); each keeps the additional data it was encrypted with
 * ({@link shareAdditionalData}).
 */

export interface EncryptedShare {
  address: string;
  /** Absent in entries written before generations: generation 1. */
  generation?: number;
  /** A short hash of the split's auth share; absent in entries written before split ids. */
  split?: string;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
}

export interface UserShares {
  userId: string;
  shares: Record<string, EncryptedShare>;
}

/**
 * The entries of `address`'s wallet in `record`, newest generation first (the split the server kept is most
 * likely the newest this browser saved).
 */
export function entriesOf(record: UserShares | undefined, address: string): EncryptedShare[] {
  return Object.values(record?.shares ?? {})
    .filter((entry) => entry.address.toLowerCase() === address.toLowerCase())
    .sort((a, b) => (b.generation ?? 1) - (a.generation ?? 1));
}

/**
 * The additional data an entry's ciphertext is bound to: a share copied to another user's, address's,
 * generation's or split's entry fails to decrypt. Each entry keeps the form it was written with.
 */
export function shareAdditionalData(
  userId: string,
  entry: Pick<EncryptedShare, 'address' | 'generation' | 'split'>,
): Uint8Array<ArrayBuffer> {
  const address = entry.address.toLowerCase();
  const parts =
    entry.generation === undefined
      ? ['dial-device-share', 1, userId, address]
      : entry.split === undefined
        ? ['dial-device-share', 2, userId, address, entry.generation]
        : ['dial-device-share', 3, userId, address, entry.generation, entry.split];
  return new TextEncoder().encode(JSON.stringify(parts));
}
