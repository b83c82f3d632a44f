import { DialError, decodeShare, encodeShare, type RECOVERY_OPRF_SUITE } from '@dial/core';

/** How the recovery share is protected: a password (scrypt) or a passkey (WebAuthn PRF). */
export type RecoveryMethod = 'password' | 'passkey';

export interface ScryptKdf {
  name: 'scrypt';
  N: number;
  r: number;
  p: number;
  /** Base64. */
  salt: string;
  /**
   * The key also needs the server's OPRF evaluation of the password (see `passwordOprf.ts`). Absent on
   * records written before Dial hardened passwords: their key is scrypt's output alone.
   */
  oprf?: typeof RECOVERY_OPRF_SUITE;
}

export interface PasskeyKdf {
  name: 'webauthn-prf';
  /** The passkey's credential id, base64url. */
  credentialId: string;
  /** The PRF input, base64; also the HKDF salt. */
  salt: string;
}

/** Older or other clients may have stored PBKDF2; Dial itself writes scrypt. */
export interface Pbkdf2Kdf {
  name: 'pbkdf2';
  hash: 'SHA-256' | 'SHA-512';
  iterations: number;
  salt: string;
}

export type RecoveryKdf = ScryptKdf | PasskeyKdf | Pbkdf2Kdf;

/** The encrypted recovery share as the server stores it (`recovery` of `PUT /api/wallet/shares`). */
export interface ProtectedRecoveryShare {
  method: RecoveryMethod;
  /** Base64 of the 12-byte IV followed by the AES-GCM ciphertext and tag. */
  ciphertext: string;
  kdf: RecoveryKdf;
}

const IV_LENGTH = 12;

/**
 * The additional data every recovery ciphertext is bound to: purpose, format version, method and the
 * wallet's address. A ciphertext moved to another wallet (or read as the other method) fails to decrypt
 * instead of yielding a share of some other key.
 */
export function recoveryAdditionalData(method: RecoveryMethod, address: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(['dial-recovery-share', 1, method, address.toLowerCase()]));
}

/** Encrypts `share` with an AES-256-GCM key under a fresh random IV; the result is base64(iv ‖ ciphertext). */
export async function encryptRecoveryShare(
  share: Uint8Array,
  key: CryptoKey,
  method: RecoveryMethod,
  address: string,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_LENGTH));
  const plain = new Uint8Array(share);
  try {
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: recoveryAdditionalData(method, address) },
      key,
      plain,
    );
    const out = new Uint8Array(IV_LENGTH + sealed.byteLength);
    out.set(iv);
    out.set(new Uint8Array(sealed), IV_LENGTH);
    return encodeShare(out);
  } finally {
    plain.fill(0);
  }
}

/**
 * Decrypts a recovery ciphertext. A wrong key (wrong password or passkey), a tampered ciphertext and a
 * ciphertext of another wallet all fail the same way: AES-GCM cannot tell them apart, and neither can we.
 *
 * @throws {DialError} `wrong_recovery_password`.
 */
export async function decryptRecoveryShare(
  ciphertext: string,
  key: CryptoKey,
  method: RecoveryMethod,
  address: string,
): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = decodeShare(ciphertext);
  } catch (error) {
    throw new DialError('wrong_recovery_password', { details: 'ciphertext is not base64', cause: error });
  }
  if (bytes.length <= IV_LENGTH + 16) {
    throw new DialError('wrong_recovery_password', { details: 'ciphertext too short' });
  }
  try {
    const plain = await crypto.subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: bytes.slice(0, IV_LENGTH),
        additionalData: recoveryAdditionalData(method, address),
      },
      key,
      bytes.slice(IV_LENGTH),
    );
    return new Uint8Array(plain);
  } catch (error) {
    throw new DialError('wrong_recovery_password', { details: 'decryption failed', cause: error });
  }
}

/** Imports 32 derived bytes as a non-extractable AES-256-GCM key, and wipes them. */
export async function importAesKey(bytes: Uint8Array): Promise<CryptoKey> {
  try {
    return await crypto.subtle.importKey('raw', new Uint8Array(bytes), 'AES-GCM', false, [
      'encrypt',
      'decrypt',
    ]);
  } finally {
    bytes.fill(0);
  }
}

/** `count` random bytes, base64. */
export function randomSalt(count = 16): string {
  return encodeShare(crypto.getRandomValues(new Uint8Array(count)));
}
