import { openDatabase, requestResult, transactionDone } from './indexedDb';

/**
 * Keeps the wallet's device share in this browser, in IndexedDB database `dial`:
 *
 * - store `keys`: one AES-GCM 256 key, generated here as NON-EXTRACTABLE and stored as the CryptoKey object
 *   itself (structured clone keeps it non-extractable), so page scripts can use it but never read it out;
 * - store `shares`: per user id, the device share of each wallet address, encrypted with that key under a
 *   random 12-byte IV, with the user id and address as additional data (a share copied to another user's
 *   or address's record fails to decrypt).
 *
 * Shares are kept per address inside the user's record so that two tabs creating a wallet at once cannot
 * overwrite each other's share: the tab whose wallet the server refused discards only its own.
 */
export const deviceShareStore = {
  /** Encrypts and stores the device share of `address` for `userId`. */
  async save(userId: string, address: string, share: Uint8Array): Promise<void> {
    const db = await database();
    const key = await deviceKey(db);
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const plain = new Uint8Array(share);
    let ciphertext: ArrayBuffer;
    try {
      ciphertext = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: additionalData(userId, address) },
        key,
        plain,
      );
    } finally {
      plain.fill(0);
    }
    await updateRecord(db, userId, (record) => {
      record.shares[addressKey(address)] = { address, iv, ciphertext };
    });
  },

  /** The device share of `address` for `userId`, or null when this browser has none it can read. */
  async load(userId: string, address: string): Promise<Uint8Array | null> {
    const db = await database();
    const transaction = db.transaction([SHARES, KEYS], 'readonly');
    const [record, key] = await Promise.all([
      requestResult<UserShares | undefined>(transaction.objectStore(SHARES).get(userId)),
      requestResult<unknown>(transaction.objectStore(KEYS).get(KEY_ID)),
    ]);
    const entry = record?.shares[addressKey(address)];
    if (entry === undefined || !(key instanceof CryptoKey)) return null;
    try {
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: entry.iv, additionalData: additionalData(userId, address) },
        key,
        entry.ciphertext,
      );
      return new Uint8Array(plain);
    } catch {
      // Encrypted under another key, or tampered with: as good as missing.
      return null;
    }
  },

  /** Forgets the device share of `address` for `userId` (a wallet the server did not register). */
  async discard(userId: string, address: string): Promise<void> {
    const db = await database();
    await updateRecord(db, userId, (record) => {
      delete record.shares[addressKey(address)];
    });
  },

  /** Forgets every device share of `userId` except the one of `address` (the wallet the server holds). */
  async keepOnly(userId: string, address: string): Promise<void> {
    const db = await database();
    await updateRecord(db, userId, (record) => {
      for (const other of Object.keys(record.shares)) {
        if (other !== addressKey(address)) delete record.shares[other];
      }
    });
  },
};

const DB_NAME = 'dial';
const DB_VERSION = 1;
const KEYS = 'keys';
const SHARES = 'shares';
const KEY_ID = 'device-share-key';

interface EncryptedShare {
  address: string;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
}

interface UserShares {
  userId: string;
  /** By lower-case address. */
  shares: Record<string, EncryptedShare>;
}

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

function addressKey(address: string): string {
  return address.toLowerCase();
}

function additionalData(userId: string, address: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(['dial-device-share', 1, userId, addressKey(address)]));
}
