import {
  candidateKeys,
  type EncryptedShare,
  entryKey,
  generationsOf,
  otherShares,
  pruneEntries,
  pruneOlder,
  type ShareSlot,
  type UserShares,
} from '../deviceShareRecords';
import type { deviceShareStore } from '../deviceShareStore';

/**
 * For unit tests (vitest runs under Node, which has no IndexedDB): the device-share store's interface over
 * in-memory records, deciding with the same record logic as the real store (`deviceShareRecords.ts`). The
 * shares are kept in plain beside each entry object, so a replaced or deleted entry loses its share just
 * as the real store's would. The browser tests run the real store.
 */
export function memoryShareStore() {
  const records = new Map<string, UserShares>();
  const plain = new Map<EncryptedShare, Uint8Array>();
  const record = (userId: string) => {
    const found = records.get(userId) ?? { userId, shares: {} };
    records.set(userId, found);
    return found;
  };

  /** Stores `share` under `key` as any version of the store may have written it (e.g. an old format). */
  const put = (
    userId: string,
    key: string,
    entry: Omit<EncryptedShare, 'iv' | 'ciphertext'>,
    share: Uint8Array,
  ) => {
    const stored: EncryptedShare = { ...entry, iv: new Uint8Array(12), ciphertext: new ArrayBuffer(0) };
    record(userId).shares[key] = stored;
    plain.set(stored, new Uint8Array(share));
  };

  const store: typeof deviceShareStore = {
    async save(userId: string, slot: ShareSlot, share: Uint8Array) {
      const key = entryKey(slot);
      put(userId, key, { address: slot.address, generation: slot.generation, split: slot.split }, share);
      return key;
    },
    async load(userId: string, key: string) {
      const entry = records.get(userId)?.shares[key];
      const share = entry === undefined ? undefined : plain.get(entry);
      return share === undefined ? null : new Uint8Array(share);
    },
    async lookup(userId: string, slot: ShareSlot) {
      const found = records.get(userId);
      return { candidates: candidateKeys(found, slot), ...otherShares(found, slot) };
    },
    async generations(userId: string, address: string) {
      return generationsOf(records.get(userId), address);
    },
    async discard(userId: string, key: string) {
      delete record(userId).shares[key];
    },
    async prune(userId: string, slot: ShareSlot, keep: string) {
      pruneEntries(record(userId), slot, keep);
    },
    async pruneOlder(userId: string, address: string, generation: number) {
      pruneOlder(record(userId), address, generation);
    },
  };

  return {
    store,
    put,
    /** The entry keys held for `userId`, sorted. */
    keys: (userId: string) => Object.keys(records.get(userId)?.shares ?? {}).sort(),
    clear: () => {
      records.clear();
      plain.clear();
    },
  };
}
