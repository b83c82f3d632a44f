import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The version of the key that {@link encryptAuthShare} uses, stored beside each ciphertext. */
export const AUTH_SHARE_KEY_VERSION = 1;

/** An encrypted auth share as stored: AES-256-GCM ciphertext with its tag appended, and the nonce. */
export interface EncryptedShare {
  /** Ciphertext followed by the 16-byte GCM tag, base64. */
  ciphertext: string;
  /** The 12-byte nonce, base64. */
  iv: string;
  keyVersion: number;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The additional authenticated data of an auth share: the owner's user id alone for the recovery pair's
 * (`wallets`, as every ciphertext stored before devices), the user id and the device's id for a device's
 * (`wallet_devices`). A user id is a UUID and never contains `/`, so the two forms never meet.
 */
function additionalData(userId: string, deviceId: string | undefined): Buffer {
  return Buffer.from(deviceId === undefined ? userId : `${userId}/device/${deviceId}`, 'utf8');
}

/**
 * Encrypts an auth share with AES-256-GCM under `key` (derived with HKDF, info `dial/auth-share`) and a
 * random 12-byte nonce. The owner's user id is the additional authenticated data, with the device's id for a
 * device's auth share: a ciphertext copied into another user's row, or into another device's row (or from a
 * device's row into `wallets`, or back), no longer decrypts.
 *
 * @param deviceId - the device the share belongs to; omitted for the recovery pair's auth share.
 */
export function encryptAuthShare(
  key: Uint8Array,
  share: Uint8Array,
  userId: string,
  deviceId?: string,
): EncryptedShare {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(userId, deviceId));
  const ciphertext = Buffer.concat([cipher.update(share), cipher.final(), cipher.getAuthTag()]);
  return {
    ciphertext: ciphertext.toString('base64'),
    iv: iv.toString('base64'),
    keyVersion: AUTH_SHARE_KEY_VERSION,
  };
}

/**
 * Decrypts what {@link encryptAuthShare} made for `userId` (and `deviceId`, for a device's share).
 *
 * @throws when the key version is unknown, or the ciphertext, nonce, tag, user id or device id do not match
 *   (GCM's authentication fails): never returns altered bytes.
 */
export function decryptAuthShare(
  key: Uint8Array,
  encrypted: EncryptedShare,
  userId: string,
  deviceId?: string,
): Uint8Array {
  if (encrypted.keyVersion !== AUTH_SHARE_KEY_VERSION) {
    throw new Error(`unknown auth share key version ${encrypted.keyVersion}`);
  }
  const data = Buffer.from(encrypted.ciphertext, 'base64');
  const iv = Buffer.from(encrypted.iv, 'base64');
  if (iv.length !== IV_BYTES || data.length < TAG_BYTES) throw new Error('malformed encrypted auth share');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(additionalData(userId, deviceId));
  decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
  return new Uint8Array(
    Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]),
  );
}
