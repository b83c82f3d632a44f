import { DialError, decodeShare, encodeShare } from '@dial/core';
import type { PasskeyKdf, ProtectedRecoveryShare } from '../api/types';
import { decryptRecoveryShare, encryptRecoveryShare } from './recoveryCipher';

const HKDF_INFO = new TextEncoder().encode('dial-recovery-share/webauthn-prf/1');

/**
 * Turns a passkey's PRF output into the AES-256-GCM key of the recovery share: HKDF-SHA-256 with the PRF
 * input as salt and a purpose label as info, so this output is never used as a key directly.
 */
export async function passkeyAesKey(prfOutput: ArrayBuffer, kdf: PasskeyKdf): Promise<CryptoKey> {
  const secret = await crypto.subtle.importKey('raw', prfOutput, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(decodeShare(kdf.salt)), info: HKDF_INFO },
    secret,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** Encrypts a recovery share with a passkey's PRF output. */
export async function protectWithPrf(
  share: Uint8Array,
  address: string,
  prfOutput: ArrayBuffer,
  kdf: PasskeyKdf,
): Promise<ProtectedRecoveryShare> {
  const key = await passkeyAesKey(prfOutput, kdf);
  return { method: 'passkey', kdf, ciphertext: await encryptRecoveryShare(share, key, 'passkey', address) };
}

/** Decrypts a passkey-protected recovery share. @throws {DialError} `wrong_recovery_password`. */
export async function openWithPrf(
  stored: ProtectedRecoveryShare,
  address: string,
  prfOutput: ArrayBuffer,
): Promise<Uint8Array> {
  if (stored.method !== 'passkey' || stored.kdf.name !== 'webauthn-prf') {
    throw new DialError('invalid_data', { details: `cannot open ${stored.method}/${stored.kdf.name}` });
  }
  const key = await passkeyAesKey(prfOutput, stored.kdf);
  return decryptRecoveryShare(stored.ciphertext, key, 'passkey', address);
}

/** base64url without padding (WebAuthn credential ids), from bytes. */
export function toBase64Url(bytes: ArrayBuffer | Uint8Array): string {
  return encodeShare(new Uint8Array(bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Bytes from base64url (padding optional). */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  return new Uint8Array(decodeShare(padded));
}

/** What a WebAuthn call's refusals say to the person. */
export interface WebAuthnMessages {
  /** The person cancelled, or no passkey answered in time (`NotAllowedError`, `AbortError`). */
  cancelled: string;
  /** Creating a passkey this authenticator already holds for the account (`InvalidStateError`), if it may. */
  alreadyHeld?: string;
}

/**
 * Runs a WebAuthn call (`navigator.credentials.create` or `get`): a cancel becomes `user_rejected` and an
 * authenticator that already holds one of the excluded credentials `method_already_linked`, each with its
 * message; any other failure is `internal_error`.
 */
export async function callWebAuthn(
  call: () => Promise<Credential | null>,
  messages: WebAuthnMessages = {
    cancelled: 'The passkey was not used. Try again, or use a recovery password.',
  },
): Promise<PublicKeyCredential> {
  let credential: Credential | null;
  try {
    credential = await call();
  } catch (error) {
    if (error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
      throw new DialError('user_rejected', { message: messages.cancelled, cause: error });
    }
    if (
      messages.alreadyHeld !== undefined &&
      error instanceof DOMException &&
      error.name === 'InvalidStateError'
    ) {
      throw new DialError('method_already_linked', { message: messages.alreadyHeld, cause: error });
    }
    throw new DialError('internal_error', { details: 'WebAuthn failed', cause: error });
  }
  if (credential === null || credential.type !== 'public-key') {
    throw new DialError('user_rejected', { details: 'no credential' });
  }
  return credential as PublicKeyCredential;
}
