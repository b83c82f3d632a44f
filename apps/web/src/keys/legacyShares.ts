import { type EncryptedShare, entriesOf, shareAdditionalData, type UserShares } from './deviceShareRecords';
import { browserKey, dialDatabase, SHARES } from './dialDatabase';
import { requestResult, transactionDone } from './indexedDb';

/**
 * The device shares kept before devices (`deviceShareRecords.ts`), for adopting such a wallet: which this
 * browser holds of a wallet, and forgetting them all once it is a device.
 */
export const legacyShares = {
  /**
   * The device shares held for `userId` of `address`'s wallet, decrypted, newest generation first (those that
   * no longer decrypt are left out). The caller wipes them.
   */
  async load(userId: string, address: string): Promise<Uint8Array[]> {
    const db = await dialDatabase();
    const record = await requestResult<UserShares | undefined>(
      db.transaction(SHARES, 'readonly').objectStore(SHARES).get(userId),
    );
    const entries = entriesOf(record, address);
    if (entries.length === 0) return [];
    const key = await browserKey(db, false);
    if (key === undefined) return [];
    const shares: Uint8Array[] = [];
    for (const entry of entries) {
      const share = await decrypt(key, userId, entry);
      if (share !== null) shares.push(share);
    }
    return shares;
  },

  /** Forgets every share held for `userId`: this browser is a device of the wallet now. */
  async forget(userId: string): Promise<void> {
    const db = await dialDatabase();
    const transaction = db.transaction(SHARES, 'readwrite');
    transaction.objectStore(SHARES).delete(userId);
    await transactionDone(transaction);
  },
};

async function decrypt(key: CryptoKey, userId: string, entry: EncryptedShare): Promise<Uint8Array | null> {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: entry.iv, additionalData: shareAdditionalData(userId, entry) },
      key,
      entry.ciphertext,
    );
    return new Uint8Array(plain);
  } catch {
    // Encrypted under another key, or tampered with: as good as missing.
    return null;
  }
}
