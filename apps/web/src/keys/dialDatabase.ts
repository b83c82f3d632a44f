import { openDatabase, requestResult, transactionDone } from './indexedDb';

/**
 * This browser's IndexedDB database `dial`, where the wallet's key material is kept:
 *
 * - store `keys`: one AES-GCM 256 key, generated here as NON-EXTRACTABLE and stored as the CryptoKey object
 *   itself (structured clone keeps it non-extractable), so page scripts can use it but never read it out;
 * - store `devices` (version 2): per user id, this browser's device of the user's wallet (its id, the
 *   wallet's address, and the unlock secret and held share encrypted under that key), and a device being
 *   registered whose id the server has not answered yet (see `deviceStore.ts`);
 * - store `shares` (version 1): the device shares of the wallet's splits as kept before devices (issue 28),
 *   read only to adopt such a wallet as a device, then deleted (see `legacyShares.ts`).
 */
export const DB_NAME = 'dial';
const DB_VERSION = 2;
export const KEYS = 'keys';
export const SHARES = 'shares';
export const DEVICES = 'devices';
const KEY_ID = 'device-share-key';

let opening: Promise<IDBDatabase> | undefined;

/** The database, opened once per page (and again after another tab's upgrade closed it). */
export function dialDatabase(): Promise<IDBDatabase> {
  opening ??= openDatabase(DB_NAME, DB_VERSION, (db) => {
    for (const store of [KEYS, SHARES, DEVICES]) {
      if (!db.objectStoreNames.contains(store)) db.createObjectStore(store);
    }
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

/** The browser's non-extractable AES key, created on first use (`create`), or undefined when there is none. */
export async function browserKey(db: IDBDatabase, create: boolean): Promise<CryptoKey | undefined> {
  const existing = await readKey(db);
  if (existing || !create) return existing;
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'encrypt',
    'decrypt',
  ]);
  try {
    // `add`, not `put`: if another tab stored a key meanwhile, keep that one (entries may already use it).
    const transaction = db.transaction(KEYS, 'readwrite');
    transaction.objectStore(KEYS).add(key, KEY_ID);
    await transactionDone(transaction);
    return key;
  } catch {
    const winner = await readKey(db);
    if (winner) return winner;
    throw new Error('The browser key could not be stored');
  }
}

async function readKey(db: IDBDatabase): Promise<CryptoKey | undefined> {
  const key = await requestResult<unknown>(db.transaction(KEYS, 'readonly').objectStore(KEYS).get(KEY_ID));
  return key instanceof CryptoKey ? key : undefined;
}

/** The value under `key` in `store`, or undefined. */
export async function readEntry<T>(store: string, key: string): Promise<T | undefined> {
  const db = await dialDatabase();
  return requestResult<T | undefined>(db.transaction(store, 'readonly').objectStore(store).get(key));
}

/** Writes (or, for `undefined`, deletes) the value under `key` in `store`, committed when it resolves. */
export async function writeEntry(store: string, key: string, value: unknown): Promise<void> {
  const db = await dialDatabase();
  const transaction = db.transaction(store, 'readwrite');
  if (value === undefined) transaction.objectStore(store).delete(key);
  else transaction.objectStore(store).put(value, key);
  await transactionDone(transaction);
}
