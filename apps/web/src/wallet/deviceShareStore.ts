import {
  entryKey,
  findEntry,
  generationsOf,
  keepOnlyEntry,
  removeEntry,
  shareAdditionalData,
  type UserShares,
} from './deviceShareRecords';
import { openDatabase, requestResult, transactionDone } from './indexedDb';

/**
 * Keeps the wallet's device share in this browser, in IndexedDB database `dial`:
 *
 * - store `keys`: one AES-GCM 256 key, generated here as NON-EXTRACTABLE and stored as the CryptoKey object
 *   itself (structured clone keeps it non-extractable), so page scripts can use it but never read it out;
 * - store `shares`: per user id, the device share of each (wallet address, share generation), encrypted with
 *   that key under a random 12-byte IV, with the user id, address and generation as additional data (a
 *   share copied to another user's, address's or generation's entry fails to decrypt). See
 *   `deviceShareRecords.ts` for the entries written before generations existed (generation 1).
 *
 * Shares are kept per (address, generation) inside the user's record so that two tabs creating a wallet at
 * once cannot overwrite each other's share (the tab whose wallet the server refused discards only its own),
 * and so that a rotation can save the new split's share before the server takes it while keeping the old
 * one until it has: whichever generation the server holds, this browser still has its share.
 */
export const deviceShareStore = {
  /** Encrypts and stores the device share of `address`'s split number `generation` for `userId`. */
  async save(userId: string, address: string, share: Uint8Array, generation: number): Promise<void> {
    const db = await database();
    const key = await deviceKey(db);
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const plain = new Uint8Array(share);
    let ciphertext: ArrayBuffer;
    try {
      ciphertext = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: shareAdditionalData(userId, address, generation) },
        key,
        plain,
      );
    } finally {
      plain.fill(0);
    }
    await updateRecord(db, userId, (record) => {
      removeEntry(record, address, generation);
      record.shares[entryKey(address, generation)] = { address, generation, iv, ciphertext };
    });
  },

  /** The device share of (`address`, `generation`) for `userId`, or null when this browser has none it can read. */
  async load(userId: string, address: string, generation: number): Promise<Uint8Array | null> {
    const db = await database();
    const transaction = db.transaction([SHARES, KEYS], 'readonly');
    const [record, key] = await Promise.all([
      requestResult<UserShares | undefined>(transaction.objectStore(SHARES).get(userId)),
      requestResult<unknown>(transaction.objectStore(KEYS).get(KEY_ID)),
    ]);
    const entry = findEntry(record, address, generation);
    if (entry === undefined || !(key instanceof CryptoKey)) return null;
    try {
      const plain = await crypto.subtle.decrypt(
        {
          name: 'AES-GCM',
          iv: entry.iv,
          additionalData: shareAdditionalData(userId, address, entry.generation),
        },
        key,
        entry.ciphertext,
      );
      return new Uint8Array(plain);
    } catch {
      // Encrypted under another key, or tampered with: as good as missing.
      return null;
    }
  },

  /** The generations of `address` this browser holds a device share of (e.g. an old one after a rotation elsewhere). */
  async generations(userId: string, address: string): Promise<number[]> {
    const db = await database();
    const record = await requestResult<UserShares | undefined>(
      db.transaction(SHARES, 'readonly').objectStore(SHARES).get(userId),
    );
    return generationsOf(record, address);
  },

  /** Forgets the device share of (`address`, `generation`): a split the server did not take. */
  async discard(userId: string, address: string, generation: number): Promise<void> {
    const db = await database();
    await updateRecord(db, userId, (record) => removeEntry(record, address, generation));
  },

  /**
   * Forgets every device share of `userId` except the one of (`address`, `generation`): the split the
   * server holds. Other wallets' shares and older or abandoned generations go.
   */
  async keepOnly(userId: string, address: string, generation: number): Promise<void> {
    const db = await database();
    await updateRecord(db, userId, (record) => keepOnlyEntry(record, address, generation));
  },
};

const DB_NAME = 'dial';
const DB_VERSION = 1;
const KEYS = 'keys';
const SHARES = 'shares';
const KEY_ID = 'device-share-key';

let opening: Promise<IDBDatabase> | undefined;

function database(): Promise<IDBDatabase> {
  opening ??= openDatabase(DB_NAME, DB_VERSION, (db) => {
    if (!db.objectStoreNames.contains(KEYS)) db.createObjectStore(KEYS);
    if (!db.objectStoreNames.contains(SHARES)) db.createObjectStore(SHARES);
  }).then(
    (db) => {
      // Let a future version upgrade from another tab instead of being blocked by this connection.
      db.onversionchange = () => {
        db.close();
        opening = undefined;
      };
      db.onclose = () => {
        opening = undefined;
      };
      return db;
    },
    (error: unknown) => {
      opening = undefined;
      throw error;
    },
  );
  return opening;
}

/** The browser's device-share key, created on first use. */
async function deviceKey(db: IDBDatabase): Promise<CryptoKey> {
  const existing = await readKey(db);
  if (existing) return existing;
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  try {
    // `add`, not `put`: if another tab stored a key meanwhile, keep that one (shares may already use it).
    const transaction = db.transaction(KEYS, 'readwrite');
    transaction.objectStore(KEYS).add(key, KEY_ID);
    await transactionDone(transaction);
    return key;
  } catch {
    const winner = await readKey(db);
    if (winner) return winner;
    throw new Error('The device-share key could not be stored');
  }
}

async function readKey(db: IDBDatabase): Promise<CryptoKey | undefined> {
  const key = await requestResult<unknown>(db.transaction(KEYS, 'readonly').objectStore(KEYS).get(KEY_ID));
  return key instanceof CryptoKey ? key : undefined;
}

/** Reads, changes and writes a user's record in one transaction, so concurrent tabs do not lose updates. */
async function updateRecord(
  db: IDBDatabase,
  userId: string,
  change: (record: UserShares) => void,
): Promise<void> {
  const transaction = db.transaction(SHARES, 'readwrite');
  const store = transaction.objectStore(SHARES);
  const record = (await requestResult<UserShares | undefined>(store.get(userId))) ?? { userId, shares: {} };
  change(record);
  if (Object.keys(record.shares).length === 0) store.delete(userId);
  else store.put(record, userId);
  await transactionDone(transaction);
}
