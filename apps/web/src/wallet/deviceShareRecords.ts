/**
 * The pure part of the device-share store: how a user's record names, finds and prunes the encrypted
 * device share of each (address, generation). Kept apart from IndexedDB so it can be tested on its own.
 *
 * Records written before share generations existed have one entry per address, keyed by the lower-case
 * address and without a `generation`: that is generation 1 (the only one there was), encrypted with the
 * version-1 additional data. New entries are keyed `address#generation` and bind the generation too.
 */

export interface EncryptedShare {
  address: string;
  /** Absent in entries written before generations: generation 1. */
  generation?: number;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
}

export interface UserShares {
  userId: string;
  /** By {@link entryKey} (or, for old entries, by lower-case address). */
  shares: Record<string, EncryptedShare>;
}

/** The key of a new entry. */
export function entryKey(address: string, generation: number): string {
  return `${address.toLowerCase()}#${generation}`;
}

/** Which generation an entry holds. */
export function entryGeneration(entry: EncryptedShare): number {
  return entry.generation ?? 1;
}

/** The entry of (address, generation), including an old-format entry for generation 1. */
export function findEntry(
  record: UserShares | undefined,
  address: string,
  generation: number,
): EncryptedShare | undefined {
  if (record === undefined) return undefined;
  const entry = record.shares[entryKey(address, generation)];
  if (entry !== undefined) return entry;
  const legacy = record.shares[address.toLowerCase()];
  return legacy !== undefined && entryGeneration(legacy) === generation ? legacy : undefined;
}

/** The generations of `address` this record holds a share of, lowest first. */
export function generationsOf(record: UserShares | undefined, address: string): number[] {
  if (record === undefined) return [];
  const wanted = address.toLowerCase();
  const found = Object.values(record.shares)
    .filter((entry) => entry.address.toLowerCase() === wanted)
    .map(entryGeneration);
  return [...new Set(found)].sort((a, b) => a - b);
}

/** Removes the entry (or entries) of (address, generation). */
export function removeEntry(record: UserShares, address: string, generation: number): void {
  for (const [key, entry] of Object.entries(record.shares)) {
    if (matches(entry, address, generation)) delete record.shares[key];
  }
}

/** Removes every entry but those of (address, generation): other wallets' and other generations'. */
export function keepOnlyEntry(record: UserShares, address: string, generation: number): void {
  for (const [key, entry] of Object.entries(record.shares)) {
    if (!matches(entry, address, generation)) delete record.shares[key];
  }
}

/**
 * The additional data an entry's ciphertext is bound to: a share copied to another user's, address's or
 * generation's entry fails to decrypt. Old entries keep the version-1 form they were written with.
 */
export function shareAdditionalData(
  userId: string,
  address: string,
  generation: number | undefined,
): Uint8Array<ArrayBuffer> {
  const parts =
    generation === undefined
      ? ['dial-device-share', 1, userId, address.toLowerCase()]
      : ['dial-device-share', 2, userId, address.toLowerCase(), generation];
  return new TextEncoder().encode(JSON.stringify(parts));
}

function matches(entry: EncryptedShare, address: string, generation: number): boolean {
  return entry.address.toLowerCase() === address.toLowerCase() && entryGeneration(entry) === generation;
}
