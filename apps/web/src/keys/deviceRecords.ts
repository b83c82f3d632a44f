/**
 * The pure part of the device store (`deviceStore.ts`): how this browser's device of a wallet is sealed
 * under the browser's non-extractable AES key and opened again, and its unlock secret made. Kept apart from
 * IndexedDB so it can be tested on its own (WebCrypto runs under Node too).
 *
 * A device's entry holds its id and the wallet's address in clear (they name it; the server gives both to
 * the owner's session anyway) and, encrypted with AES-256-GCM under a random 12-byte IV, the 32-byte unlock
 * secret followed by the 33-byte held share. The additional data binds the user id, the device id and the
 * address: an entry copied to another user's slot, or edited to name another device or wallet, fails to
 * decrypt. A device being registered (its id not yet answered) is sealed the same way, named by the hash of
 * its secret instead of an id ({@link SealedPendingDevice}).
 */
import { SHARE_LENGTH } from '@dial/core';

/** What this browser keeps to open the wallet as one of its devices (docs/SECURITY.md, "Devices"). */
export interface HeldDevice {
  /** The device's id on the server (`wallet_devices.id`). */
  deviceId: string;
  /** The wallet's address (EIP-55) the held share rebuilds with the device's auth share. */
  address: string;
  /** The device's unlock secret, 32 bytes base64url without padding (what `unlockDevice` takes). */
  secret: string;
  /** The device's held share (33 bytes); the caller wipes it after use. */
  heldShare: Uint8Array;
}

/** A device's secret made before the server knows the device (a link's claim sends its hash first). */
export interface NewDeviceSecret {
  /** 32 random bytes, base64url without padding. */
  secret: string;
  /** SHA-256 of the secret's 32 bytes, 64 lower-case hex digits (what `DeviceInputSchema.secretHash` takes). */
  secretHash: string;
}

/**
 * A device this browser is registering (creating the wallet), kept before the request so that a lost answer
 * can be completed later: the server made the device, but only the secret tells which one is ours.
 */
export interface PendingDevice {
  address: string;
  secret: string;
  secretHash: string;
  /** The held share (33 bytes); the caller wipes it after use. */
  heldShare: Uint8Array;
}

/** A device's entry as stored. */
export interface SealedDevice {
  deviceId: string;
  address: string;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
}

/** A pending device's entry as stored. */
export interface SealedPendingDevice {
  secretHash: string;
  address: string;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
}

const SECRET_LENGTH = 32;

/** A new unlock secret (32 random bytes) and its SHA-256. */
export async function newDeviceSecret(): Promise<NewDeviceSecret> {
  const bytes = crypto.getRandomValues(new Uint8Array(SECRET_LENGTH));
  try {
    return { secret: toBase64Url(bytes), secretHash: await sha256Hex(bytes) };
  } finally {
    bytes.fill(0);
  }
}

/** The SHA-256 (hex) of an unlock secret as the server compares it. */
export async function secretHashOf(secret: string): Promise<string> {
  const bytes = fromBase64Url(secret);
  try {
    return await sha256Hex(bytes);
  } finally {
    bytes.fill(0);
  }
}

/** Seals `device` for `userId` under `key`. */
export async function sealDevice(key: CryptoKey, userId: string, device: HeldDevice): Promise<SealedDevice> {
  const { deviceId, address } = device;
  const sealed = await seal(key, deviceAdditionalData(userId, deviceId, address), device);
  return { deviceId, address, ...sealed };
}

/** Opens a device's entry, or null when it does not decrypt (another key, another user, tampered with). */
export async function openDevice(
  key: CryptoKey,
  userId: string,
  sealed: SealedDevice,
): Promise<HeldDevice | null> {
  const { deviceId, address } = sealed;
  const opened = await open(key, deviceAdditionalData(userId, deviceId, address), sealed);
  return opened === null ? null : { deviceId, address, ...opened };
}

/** Seals a device being registered. */
export async function sealPendingDevice(
  key: CryptoKey,
  userId: string,
  device: PendingDevice,
): Promise<SealedPendingDevice> {
  const { secretHash, address } = device;
  const sealed = await seal(key, pendingAdditionalData(userId, secretHash, address), device);
  return { secretHash, address, ...sealed };
}

/** Opens a pending device's entry, or null when it does not decrypt or its secret is not the one named. */
export async function openPendingDevice(
  key: CryptoKey,
  userId: string,
  sealed: SealedPendingDevice,
): Promise<PendingDevice | null> {
  const { secretHash, address } = sealed;
  const opened = await open(key, pendingAdditionalData(userId, secretHash, address), sealed);
  if (opened === null) return null;
  if ((await secretHashOf(opened.secret)) !== secretHash) {
    opened.heldShare.fill(0);
    return null;
  }
  return { secretHash, address, ...opened };
}

/** What a device's ciphertext is bound to: the user, the device and the wallet. */
export function deviceAdditionalData(
  userId: string,
  deviceId: string,
  address: string,
): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(
    JSON.stringify(['dial-device', 1, userId, deviceId, address.toLowerCase()]),
  );
}

function pendingAdditionalData(userId: string, secretHash: string, address: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(
    JSON.stringify(['dial-pending-device', 1, userId, secretHash, address.toLowerCase()]),
  );
}

async function seal(
  key: CryptoKey,
  additionalData: Uint8Array<ArrayBuffer>,
  { secret, heldShare }: { secret: string; heldShare: Uint8Array },
): Promise<{ iv: Uint8Array<ArrayBuffer>; ciphertext: ArrayBuffer }> {
  const secretBytes = fromBase64Url(secret);
  if (secretBytes.length !== SECRET_LENGTH || heldShare.length !== SHARE_LENGTH) {
    secretBytes.fill(0);
    throw new Error('a device secret is 32 bytes and its held share 33');
  }
  const plain = new Uint8Array(SECRET_LENGTH + SHARE_LENGTH);
  plain.set(secretBytes, 0);
  plain.set(heldShare, SECRET_LENGTH);
  secretBytes.fill(0);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  try {
    const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData }, key, plain);
    return { iv, ciphertext };
  } finally {
    plain.fill(0);
  }
}

async function open(
  key: CryptoKey,
  additionalData: Uint8Array<ArrayBuffer>,
  { iv, ciphertext }: { iv: Uint8Array<ArrayBuffer>; ciphertext: ArrayBuffer },
): Promise<{ secret: string; heldShare: Uint8Array } | null> {
  let plain: Uint8Array;
  try {
    plain = new Uint8Array(
      await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData }, key, ciphertext),
    );
  } catch {
    return null;
  }
  try {
    if (plain.length !== SECRET_LENGTH + SHARE_LENGTH) return null;
    return { secret: toBase64Url(plain.subarray(0, SECRET_LENGTH)), heldShare: plain.slice(SECRET_LENGTH) };
  } finally {
    plain.fill(0);
  }
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
