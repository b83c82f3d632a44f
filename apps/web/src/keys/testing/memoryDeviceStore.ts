import {
  newDeviceSecret,
  openDevice,
  openPendingDevice,
  type SealedDevice,
  type SealedPendingDevice,
  sealDevice,
  sealPendingDevice,
} from '../deviceRecords';
import type { deviceStore } from '../deviceStore';
import type { legacyShares } from '../legacyShares';

/**
 * For unit tests (vitest runs under Node, which has no IndexedDB): the device store's interface over
 * in-memory entries, sealed and opened exactly as the real store does (`deviceRecords.ts`, under a
 * non-extractable AES key made for this store), and the shares kept before devices (`legacyShares`), in
 * plain. The browser tests run the real store.
 */
export function memoryDeviceStore() {
  const devices = new Map<string, SealedDevice>();
  const pending = new Map<string, SealedPendingDevice>();
  const legacy = new Map<string, { address: string; share: Uint8Array }[]>();
  const key = crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);

  const store: typeof deviceStore = {
    newSecret: newDeviceSecret,
    async save(userId, device) {
      devices.set(userId, await sealDevice(await key, userId, device));
    },
    async load(userId) {
      const sealed = devices.get(userId);
      return sealed === undefined ? null : openDevice(await key, userId, sealed);
    },
    async forget(userId, deviceId) {
      if (devices.get(userId)?.deviceId === deviceId) devices.delete(userId);
    },
    async savePending(userId, device) {
      pending.set(userId, await sealPendingDevice(await key, userId, device));
    },
    async loadPending(userId) {
      const sealed = pending.get(userId);
      return sealed === undefined ? null : openPendingDevice(await key, userId, sealed);
    },
    async forgetPending(userId, secretHash) {
      if (pending.get(userId)?.secretHash === secretHash) pending.delete(userId);
    },
  };

  const legacyStore: typeof legacyShares = {
    async load(userId, address) {
      return (legacy.get(userId) ?? [])
        .filter((entry) => entry.address.toLowerCase() === address.toLowerCase())
        .map((entry) => new Uint8Array(entry.share));
    },
    async forget(userId) {
      legacy.delete(userId);
    },
  };

  return {
    store,
    legacyStore,
    /** Keeps `share` as a device share of `address`'s wallet, as the app before devices kept them. */
    putLegacy(userId: string, address: string, share: Uint8Array) {
      legacy.set(userId, [...(legacy.get(userId) ?? []), { address, share: new Uint8Array(share) }]);
    },
    /** The id of the device kept for `userId`, or null. */
    deviceId: (userId: string) => devices.get(userId)?.deviceId ?? null,
    /** Whether a pending device is kept for `userId`. */
    hasPending: (userId: string) => pending.has(userId),
    /** How many shares kept before devices are held for `userId`. */
    legacyCount: (userId: string) => (legacy.get(userId) ?? []).length,
    /** Moves the device kept for `userId` to `otherUserId`'s slot, as an attacker editing the store could. */
    move(userId: string, otherUserId: string) {
      const sealed = devices.get(userId);
      if (sealed !== undefined) devices.set(otherUserId, sealed);
    },
    clear() {
      devices.clear();
      pending.clear();
      legacy.clear();
    },
  };
}
