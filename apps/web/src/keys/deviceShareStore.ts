import {
  candidateKeys,
  type EncryptedShare,
  entryKey,
  generationsOf,
  otherShares,
  pruneEntries,
  pruneOlder,
  type ShareSlot,
  shareAdditionalData,
  type UserShares,
} from './deviceShareRecords';
import { openDatabase, requestResult, transactionDone } from './indexedDb';

/** Which entries may hold the device share of the server's split, and what else is held of that wallet. */
export interface ShareLookup {
  /** Entry keys, best first ({@link candidateKeys}). */
  candidates: string[];
  /** A share of an older generation is held: the keys were replaced elsewhere. */
  older: boolean;
  /** A share of another split of the same generation is held: it can never open this wallet. */
  otherSplit: boolean;
}

/**
 * Keeps the wallet's device share in this browser, in IndexedDB database `dial`:
 *
 * - store `keys`: one AES-GCM 256 key, generated here as NON-EXTRACTABLE and stored as the CryptoKey object
 *   itself (structured clone keeps it non-extractable), so page scripts can use it but never read it out;
 * - store `shares`: per user id, the device share of each split (address, generation, split id), encrypted
 *   with that key under a random 12-byte IV, with the user id and the split as additional data (a share
 *   copied to another user's or split's entry fails to decrypt). See `deviceShareRecords.ts` for the
 *   entries written before generations and split ids, which are still read.
 *
 * Shares are kept per split inside the user's record so that two tabs creating a wallet or rotating its
 * shares at once cannot overwrite each other's share (the tab whose split the server refused discards only
 * its own), and so that a rotation can save the new split's share before the server takes it while keeping
 * the old one until it has: whichever split the server holds, this browser still has its share.
 */
export const deviceShareStore = {
  /** Encrypts and stores the device share of `slot` for `userId`; returns its entry key. */
  async save(userId: string, slot: ShareSlot, share: Uint8Array): Promise<string> {
    const db = await database();
    const key = await deviceKey(db);
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const plain = new Uint8Array(share);
    const named = { address: slot.address, generation: slot.generation, split: slot.split };
    let ciphertext: ArrayBuffer;
    try {
      ciphertext = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: shareAdditionalData(userId, named) },
        key,
        plain,
      );
    } finally {
      plain.fill(0);
    }
    const entry: EncryptedShare = { ...named, iv, ciphertext };
    const stored = entryKey(slot);
    await updateRecord(db, userId, (record) => {
      record.shares[stored] = entry;
    });
    return stored;
  },

  /** The device share in entry `entry` of `userId`'s record, or null when this browser has none it can read. */
  async load(userId: string, entry: string): Promise<Uint8Array | null> {
    const db = await database();
    const transaction = db.transaction([SHARES, KEYS], 'readonly');
    const [record, key] = await Promise.all([
      requestResult<UserShares | undefined>(transaction.objectStore(SHARES).get(userId)),
      requestResult<unknown>(transaction.objectStore(KEYS).get(KEY_ID)),
    ]);
    const found = record?.shares[entry];
    if (found === undefined || !(key instanceof CryptoKey)) return null;
    try {
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: found.iv, additionalData: shareAdditionalData(userId, found) },
        key,
        found.ciphertext,
      );
      return new Uint8Array(plain);
    } catch {
      // Encrypted under another key, or tampered with: as good as missing.
      return null;
    }
  },

  /** Which entries may hold the device share of `slot` (the server's split), and what else is held. */
  async lookup(userId: string, slot: ShareSlot): Promise<ShareLookup> {
    const record = await readRecord(userId);
    return { candidates: candidateKeys(record, slot), ...otherShares(record, slot) };
  },

  /** The generations of `address` this browser holds a device share of. */
  async generations(userId: string, address: string): Promise<number[]> {
    return generationsOf(await readRecord(userId), address);
  },

  /** Forgets one entry: a split the server did not take, or a share that does not rebuild the key. */
  async discard(userId: string, entry: string): Promise<void> {
    const db = await database();
    await updateRecord(db, userId, (record) => {
      delete record.shares[entry];
    });
  },

  /**
   * The server holds `slot`, whose device share is entry `keep`: forgets what that makes useless (other
   * wallets', older generations, other entries of that generation) and keeps newer generations, which are
   * rotations other tabs have prepared and not sent yet.
   */
  async prune(userId: string, slot: ShareSlot, keep: string): Promise<void> {
    const db = await database();
    await updateRecord(db, userId, (record) => pruneEntries(record, slot, keep));
  },

  /** Forgets other wallets' shares and generations of `address` older than `generation`. */
  async pruneOlder(userId: string, address: string, generation: number): Promise<void> {
    const db = await database();
    await updateRecord(db, userId, (record) => pruneOlder(record, address, generation));
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

async function readRecord(userId: string): Promise<UserShares | undefined> {
  const db = await database();
  return requestResult<UserShares | undefined>(
    db.transaction(SHARES, 'readonly').objectStore(SHARES).get(userId),
  );
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
