import {
  type HeldDevice,
  type NewDeviceSecret,
  newDeviceSecret,
  openDevice,
  openPendingDevice,
  type PendingDevice,
  type SealedDevice,
  type SealedPendingDevice,
  sealDevice,
  sealPendingDevice,
} from './deviceRecords';
import { browserKey, DEVICES, dialDatabase } from './dialDatabase';
import { requestResult, transactionDone } from './indexedDb';

export type { HeldDevice, NewDeviceSecret, PendingDevice } from './deviceRecords';

/** The device store's interface, as agreed with the link screens ("Add a device" by QR code) that call it. */
export interface DeviceStore {
  /** A new unlock secret and its hash (crypto.getRandomValues, SHA-256 via WebCrypto). */
  newSecret(): Promise<NewDeviceSecret>;
  /**
   * Keeps this browser's device for `userId` (encrypted under the store's non-extractable AES key, with the
   * user id and device id as additional data), replacing any device kept for that user and wallet.
   */
  save(userId: string, device: HeldDevice): Promise<void>;
  /** The device kept for `userId`, or null (none, or it no longer decrypts). */
  load(userId: string): Promise<HeldDevice | null>;
  /** Forgets the device kept for `userId` (a removed device, or a sign-out that forgets keys). */
  forget(userId: string, deviceId: string): Promise<void>;
}

/**
 * The device being registered with a new wallet, kept from before the request until the server's answer
 * names its id: if the answer is lost, the next opening finds the device the server made by its secret.
 */
export interface PendingDeviceStore {
  /** Keeps `device` for `userId` (one at a time: a new one replaces an older one). */
  savePending(userId: string, device: PendingDevice): Promise<void>;
  /** The pending device of `userId`, or null. */
  loadPending(userId: string): Promise<PendingDevice | null>;
  /** Forgets the pending device of `userId` if it is the one with `secretHash`. */
  forgetPending(userId: string, secretHash: string): Promise<void>;
}

/**
 * This browser's device of each user's wallet, in IndexedDB database `dial` (store `devices`, see
 * `dialDatabase.ts`): the device's id and the wallet's address, with its unlock secret and held share
 * encrypted under the browser's non-extractable AES key, bound to the user, the device and the wallet
 * (`deviceRecords.ts`). One device per user: a browser is one device of a wallet. Callers that change it
 * (opening, creating, recovering, linking) hold the wallet's Web Lock ({@link withWalletLock}).
 */
export const deviceStore: DeviceStore & PendingDeviceStore = {
  newSecret: newDeviceSecret,

  async save(userId, device) {
    const db = await dialDatabase();
    const key = await requireKey(db);
    const sealed = await sealDevice(key, userId, device);
    const transaction = db.transaction(DEVICES, 'readwrite');
    transaction.objectStore(DEVICES).put(sealed, deviceKey(userId));
    await transactionDone(transaction);
  },

  async load(userId) {
    const db = await dialDatabase();
    const sealed = await requestResult<SealedDevice | undefined>(
      db.transaction(DEVICES, 'readonly').objectStore(DEVICES).get(deviceKey(userId)),
    );
    if (sealed === undefined) return null;
    const key = await browserKey(db, false);
    return key === undefined ? null : openDevice(key, userId, sealed);
  },

  async forget(userId, deviceId) {
    const db = await dialDatabase();
    const transaction = db.transaction(DEVICES, 'readwrite');
    const store = transaction.objectStore(DEVICES);
    const sealed = await requestResult<SealedDevice | undefined>(store.get(deviceKey(userId)));
    // Only that device: another tab may have saved a newer one meanwhile.
    if (sealed?.deviceId === deviceId) store.delete(deviceKey(userId));
    await transactionDone(transaction);
  },

  async savePending(userId, device) {
    const db = await dialDatabase();
    const key = await requireKey(db);
    const sealed = await sealPendingDevice(key, userId, device);
    const transaction = db.transaction(DEVICES, 'readwrite');
    transaction.objectStore(DEVICES).put(sealed, pendingKey(userId));
    await transactionDone(transaction);
  },

  async loadPending(userId) {
    const db = await dialDatabase();
    const sealed = await requestResult<SealedPendingDevice | undefined>(
      db.transaction(DEVICES, 'readonly').objectStore(DEVICES).get(pendingKey(userId)),
    );
    if (sealed === undefined) return null;
    const key = await browserKey(db, false);
    return key === undefined ? null : openPendingDevice(key, userId, sealed);
  },

  async forgetPending(userId, secretHash) {
    const db = await dialDatabase();
    const transaction = db.transaction(DEVICES, 'readwrite');
    const store = transaction.objectStore(DEVICES);
    const sealed = await requestResult<SealedPendingDevice | undefined>(store.get(pendingKey(userId)));
    if (sealed?.secretHash === secretHash) store.delete(pendingKey(userId));
    await transactionDone(transaction);
  },
};

function deviceKey(userId: string): string {
  return `device:${userId}`;
}

function pendingKey(userId: string): string {
  return `pending:${userId}`;
}

async function requireKey(db: IDBDatabase): Promise<CryptoKey> {
  const key = await browserKey(db, true);
  if (key === undefined) throw new Error('The browser key could not be made');
  return key;
}
