/**
 * The pure part of the device-share store: how a user's record names, finds and prunes the encrypted
 * device share of each split of the key. Kept apart from IndexedDB so it can be tested on its own.
 *
 * A split is named by (address, generation, split id), the split id being a short hash of the split's auth
 * share ({@link splitId}): two splits can have the same generation (two tabs setting up recovery at once,
 * or a rotation that never reached the server followed by a recovery on another device), and the server's
 * auth share (GET /api/wallet) says which of them it holds. Entries are keyed `address#generation#split`.
 *
 * Older entries are still read: those written before split ids (`address#generation`, no `split`) and
 * those written before generations (keyed by the lower-case address, no `generation`: generation 1). Each
 * keeps the additional data it was encrypted with ({@link shareAdditionalData}).
 */

export interface EncryptedShare {
  address: string;
  /** Absent in entries written before generations: generation 1. */
  generation?: number;
  /** {@link splitId} of the split's auth share; absent in entries written before split ids. */
  split?: string;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
}

export interface UserShares {
  userId: string;
  /** By {@link entryKey} (or, for older entries, by `address#generation` or the lower-case address). */
  shares: Record<string, EncryptedShare>;
}

/** Which split a device share belongs to. */
export interface ShareSlot {
  address: string;
  generation: number;
  split: string;
}

/**
 * A short name for a split: the first 8 bytes of the SHA-256 of its auth share, in hex. The server hands
 * the auth share to the owner's session anyway; 64 bits of its hash tell splits apart and reveal nothing.
 */
export async function splitId(authShare: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(authShare)));
  return Array.from(digest.subarray(0, 8), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The key of a new entry. */
export function entryKey(slot: ShareSlot): string {
  return `${slot.address.toLowerCase()}#${slot.generation}#${slot.split}`;
}

/** Which generation an entry holds. */
export function entryGeneration(entry: EncryptedShare): number {
  return entry.generation ?? 1;
}

/**
 * The keys of the entries that may hold the device share of the split the server holds, best first: the
 * entry of exactly that split, then entries of that generation written before split ids (which may be of
 * that split or of another one: only rebuilding the key tells). Entries of another split of the same
 * generation are left out: they cannot open the wallet.
 */
export function candidateKeys(record: UserShares | undefined, slot: ShareSlot): string[] {
  if (record === undefined) return [];
  const exact: string[] = [];
  const unnamed: string[] = [];
  for (const [key, entry] of Object.entries(record.shares)) {
    if (!sameAddress(entry, slot.address) || entryGeneration(entry) !== slot.generation) continue;
    if (entry.split === undefined) unnamed.push(key);
    else if (entry.split === slot.split) exact.push(key);
  }
  return [...exact, ...unnamed];
}

/** What else this record holds of `slot`'s wallet, for telling the person why their share does not open it. */
export function otherShares(
  record: UserShares | undefined,
  slot: ShareSlot,
): { older: boolean; otherSplit: boolean } {
  let older = false;
  let otherSplit = false;
  for (const entry of Object.values(record?.shares ?? {})) {
    if (!sameAddress(entry, slot.address)) continue;
    const generation = entryGeneration(entry);
    if (generation < slot.generation) older = true;
    if (generation === slot.generation && entry.split !== undefined && entry.split !== slot.split) {
      otherSplit = true;
    }
  }
  return { older, otherSplit };
}

/** The generations of `address` this record holds a share of, lowest first. */
export function generationsOf(record: UserShares | undefined, address: string): number[] {
  if (record === undefined) return [];
  const found = Object.values(record.shares)
    .filter((entry) => sameAddress(entry, address))
    .map(entryGeneration);
  return [...new Set(found)].sort((a, b) => a - b);
}

/**
 * Forgets what the split the server holds (`slot`, whose device share is the entry `keep`) makes useless:
 * other wallets' shares, older generations, and other entries of the same generation (another split, or
 * an orphan). NEWER generations stay: they are rotations another tab has prepared and not yet sent (it may
 * be waiting for a code), and the server may take one of them next.
 */
export function pruneEntries(record: UserShares, slot: ShareSlot, keep: string): void {
  for (const [key, entry] of Object.entries(record.shares)) {
    if (key === keep) continue;
    if (!sameAddress(entry, slot.address) || entryGeneration(entry) <= slot.generation) {
      delete record.shares[key];
    }
  }
}

/**
 * Forgets the entries of generations older than `generation` (and other wallets'), keeping that generation
 * and newer ones: what is safe when it is not known which entry holds the server's split.
 */
export function pruneOlder(record: UserShares, address: string, generation: number): void {
  for (const [key, entry] of Object.entries(record.shares)) {
    if (!sameAddress(entry, address) || entryGeneration(entry) < generation) delete record.shares[key];
  }
}

/**
 * The additional data an entry's ciphertext is bound to: a share copied to another user's, address's,
 * generation's or split's entry fails to decrypt. Older entries keep the form they were written with.
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

function sameAddress(entry: Pick<EncryptedShare, 'address'>, address: string): boolean {
  return entry.address.toLowerCase() === address.toLowerCase();
}
