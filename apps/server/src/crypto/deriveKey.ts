import { hkdfSync } from 'node:crypto';

/** What a derived key is for: each purpose gets its own key, so one can never be used as another. */
export type KeyPurpose =
  | 'dial/otp'
  | 'dial/auth-share'
  | 'dial/onramp-partner-user-id'
  | 'dial/recovery-oprf'
  | 'dial/proof-of-work';

/**
 * Derives a 32-byte key for one purpose from the master key (`SHARE_ENCRYPTION_KEY`) with HKDF-SHA256, the
 * purpose as HKDF's `info`. No salt: the master key is already uniformly random.
 */
export function deriveKey(masterKey: Uint8Array, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, new Uint8Array(0), purpose, 32));
}
