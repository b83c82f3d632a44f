import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { isUniqueViolation } from '../db/isUniqueViolation.js';
import { decryptAuthShare, type EncryptedShare, encryptAuthShare } from './shareCipher.js';

/** A user's embedded wallet as the registry keeps it. */
export interface StoredWallet {
  address: string;
  authShare: Uint8Array;
}

/**
 * Registers a user's wallet: its address and its auth share, encrypted. A user has at most one wallet; the
 * `user_id` primary key decides, so two concurrent registrations give one wallet and one `false`.
 *
 * @returns `false` when the user already has a wallet (nothing is changed).
 */
export async function saveWallet(
  db: Kysely<Database>,
  key: Uint8Array,
  wallet: { userId: string; address: string; authShare: Uint8Array },
  now: Date,
): Promise<boolean> {
  const encrypted = encryptAuthShare(key, wallet.authShare, wallet.userId);
  try {
    await db
      .insertInto('wallets')
      .values({
        user_id: wallet.userId,
        address: wallet.address,
        auth_share_ciphertext: encrypted.ciphertext,
        iv: encrypted.iv,
        key_version: encrypted.keyVersion,
        created_at: now.toISOString(),
      })
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * The user's wallet with its auth share decrypted; `undefined` when the user has none.
 *
 * @throws when the stored ciphertext does not decrypt for this user (altered, moved from another user's
 *   row, or another key).
 */
export async function loadWallet(
  db: Kysely<Database>,
  key: Uint8Array,
  userId: string,
): Promise<StoredWallet | undefined> {
  const row = await db.selectFrom('wallets').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (row === undefined) return undefined;
  const encrypted: EncryptedShare = {
    ciphertext: row.auth_share_ciphertext,
    iv: row.iv,
    keyVersion: Number(row.key_version),
  };
  return { address: row.address, authShare: decryptAuthShare(key, encrypted, userId) };
}
