import type { DeviceInfo, RecoveryKdf } from '@dial/api';
import { DialError } from '@dial/core';
import type { Kysely } from 'kysely';
import type { Address } from 'viem';
import { accountWallet } from '../auth/accountWallet.js';
import type { Database, RecoveryMethod } from '../db/database.js';
import { isUniqueViolation } from '../db/isUniqueViolation.js';
import { insertDevice, type NewDevice } from './deviceStore.js';
import { decryptAuthShare, type EncryptedShare, encryptAuthShare } from './shareCipher.js';

/** A user's embedded wallet as the registry keeps it. */
export interface StoredWallet {
  address: string;
  authShare: Uint8Array;
}

/**
 * Registers a user's wallet, in one transaction: its address, the recovery pair's auth share (encrypted,
 * `legacy_split` 0) and, when given, its first device (`how: created`). A user has at most one wallet; the
 * `user_id` primary key decides, so two concurrent registrations give one wallet and one `false`.
 *
 * @returns `false` when the user already has a wallet or the address is another's (nothing is changed).
 * @throws {DialError} `invalid_data` when the device's secret hash is already enrolled (nothing is changed).
 */
export async function saveWallet(
  db: Kysely<Database>,
  key: Uint8Array,
  wallet: { userId: string; address: string; authShare: Uint8Array },
  now: Date,
  device?: Omit<NewDevice, 'userId' | 'how'>,
): Promise<DeviceInfo | true | false> {
  const encrypted = encryptAuthShare(key, wallet.authShare, wallet.userId);
  try {
    return await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('wallets')
        .values({
          user_id: wallet.userId,
          address: wallet.address,
          auth_share_ciphertext: encrypted.ciphertext,
          iv: encrypted.iv,
          key_version: encrypted.keyVersion,
          created_at: now.toISOString(),
          legacy_split: 0,
        })
        .execute();
      if (device === undefined) return true;
      return insertDevice(trx, key, { ...device, userId: wallet.userId, how: 'created' }, now);
    });
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

/** The address of the user's registered wallet (EIP-55), without decrypting anything; `undefined` without one. */
export async function loadWalletAddress(db: Kysely<Database>, userId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('wallets')
    .select('address')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.address;
}

/** A wallet's share generation and, when set up, its recovery share's method and creation time. */
export interface WalletSummary {
  /** EIP-55: addresses are stored checksummed. */
  address: Address;
  generation: number;
  recovery: { method: RecoveryMethod; createdAt: string } | null;
  /** How many devices can open it (removed ones do not count). */
  devices: number;
  /**
   * The one auth share of a wallet registered before devices, while `legacy_split` is 1 (until its first
   * device is enrolled or its recovery pair replaced); `null` otherwise.
   */
  legacyAuthShare: Uint8Array | null;
}

/**
 * The user's wallet: its address, share generation, recovery metadata (not the recovery ciphertext), how many
 * devices open it, and only for a legacy split its auth share, decrypted; `undefined` when the user has none.
 *
 * @throws like {@link loadWallet} when a legacy auth share does not decrypt.
 */
export async function loadWalletSummary(
  db: Kysely<Database>,
  key: Uint8Array,
  userId: string,
): Promise<WalletSummary | undefined> {
  const row = await db
    .selectFrom('wallets')
    .leftJoin('recovery_shares', 'recovery_shares.user_id', 'wallets.user_id')
    .select([
      'wallets.address',
      'wallets.auth_share_ciphertext',
      'wallets.iv',
      'wallets.key_version',
      'wallets.share_generation',
      'wallets.legacy_split',
      'recovery_shares.method',
      'recovery_shares.created_at as recovery_created_at',
      (eb) =>
        eb
          .selectFrom('wallet_devices')
          .select((inner) => inner.fn.countAll<number | string | bigint>().as('count'))
          .whereRef('wallet_devices.user_id', '=', 'wallets.user_id')
          .where('wallet_devices.removed_at', 'is', null)
          .as('devices'),
    ])
    .where('wallets.user_id', '=', userId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const encrypted: EncryptedShare = {
    ciphertext: row.auth_share_ciphertext,
    iv: row.iv,
    keyVersion: Number(row.key_version),
  };
  return {
    address: row.address as Address,
    generation: Number(row.share_generation),
    devices: Number(row.devices ?? 0),
    legacyAuthShare: Number(row.legacy_split) === 1 ? decryptAuthShare(key, encrypted, userId) : null,
    recovery:
      row.method === null || row.recovery_created_at === null
        ? null
        : { method: row.method, createdAt: row.recovery_created_at },
  };
}

/** A recovery share as the browser gave it: encrypted by the browser, with its KDF parameters. */
export interface RecoveryShareInput {
  method: RecoveryMethod;
  /** Base64, opaque to the server. */
  ciphertext: string;
  /** The browser's KDF parameters, already checked against the route schema. */
  kdf: RecoveryKdf;
}

/** What a rotation is given: the new auth share of the same key, and optionally the new recovery share. */
export interface ShareRotation {
  userId: string;
  /** The generation the browser split from; the rotation happens only if it is still the current one. */
  expectedGeneration: number;
  /** The registered address (EIP-55): the key does not change, only its shares. */
  address: string;
  authShare: Uint8Array;
  recovery: RecoveryShareInput | undefined;
}

/**
 * Replaces a wallet's shares in one transaction: the auth share (encrypted with a fresh nonce) and the
 * generation (+1), with a conditional `UPDATE … WHERE share_generation = expectedGeneration`, so of two
 * concurrent rotations from the same generation exactly one wins. The recovery share is replaced by the
 * given one, stored with the new generation; when none is given the old one is deleted, since a share of
 * the previous split no longer combines with the new auth share.
 *
 * @returns the new generation.
 * @throws {DialError} `wallet_not_found`; `invalid_data` when the address is not the registered one;
 *   `stale_share_generation` when the generation has moved on (nothing is changed).
 */
export async function rotateShares(
  db: Kysely<Database>,
  key: Uint8Array,
  rotation: ShareRotation,
  now: Date,
): Promise<number> {
  const { userId, expectedGeneration } = rotation;
  const encrypted = encryptAuthShare(key, rotation.authShare, userId);
  return db.transaction().execute(async (trx) => {
    const wallet = await trx
      .selectFrom('wallets')
      .select('address')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (wallet === undefined) throw new DialError('wallet_not_found');
    if (wallet.address !== rotation.address) {
      throw new DialError('invalid_data', { details: 'address is not the registered wallet' });
    }
    const updated = await trx
      .updateTable('wallets')
      .set({
        auth_share_ciphertext: encrypted.ciphertext,
        iv: encrypted.iv,
        key_version: encrypted.keyVersion,
        share_generation: expectedGeneration + 1,
        // The old single split is gone: its auth share was replaced, so a legacy device share opens nothing.
        legacy_split: 0,
      })
      .where('user_id', '=', userId)
      .where('share_generation', '=', expectedGeneration)
      .returning('share_generation')
      .executeTakeFirst();
    if (updated === undefined) throw new DialError('stale_share_generation');
    const generation = Number(updated.share_generation);

    await trx.deleteFrom('recovery_shares').where('user_id', '=', userId).execute();
    if (rotation.recovery !== undefined) {
      await trx
        .insertInto('recovery_shares')
        .values({
          user_id: userId,
          generation,
          method: rotation.recovery.method,
          ciphertext: rotation.recovery.ciphertext,
          kdf: JSON.stringify(rotation.recovery.kdf),
          created_at: now.toISOString(),
        })
        .execute();
    }
    return generation;
  });
}

/** The stored recovery share, for its owner's browser to decrypt. */
export interface StoredRecoveryShare {
  generation: number;
  method: RecoveryMethod;
  ciphertext: string;
  kdf: RecoveryKdf;
}

/**
 * The recovery pair: the user's recovery share with the wallet's address and the pair's auth share
 * (decrypted), which together with the decrypted recovery share rebuild the key; `undefined` when recovery
 * was never set up (or a rotation dropped it).
 *
 * @throws like {@link loadWallet} when the auth share does not decrypt.
 */
export async function loadRecoveryPair(
  db: Kysely<Database>,
  key: Uint8Array,
  userId: string,
): Promise<(StoredRecoveryShare & { address: string; authShare: Uint8Array }) | undefined> {
  const recovery = await loadRecoveryShare(db, userId);
  if (recovery === undefined) return undefined;
  const wallet = await loadWallet(db, key, userId);
  if (wallet === undefined) return undefined;
  return { ...recovery, address: wallet.address, authShare: wallet.authShare };
}

/** The user's recovery share; `undefined` when recovery was never set up (or a rotation dropped it). */
export async function loadRecoveryShare(
  db: Kysely<Database>,
  userId: string,
): Promise<StoredRecoveryShare | undefined> {
  const row = await db
    .selectFrom('recovery_shares')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    generation: Number(row.generation),
    method: row.method,
    ciphertext: row.ciphertext,
    kdf: JSON.parse(row.kdf) as RecoveryKdf,
  };
}

/**
 * The wallet ({@link accountWallet}: the embedded one, else the first linked) of the Dial user who verified
 * this phone number (E.164) and lets others find them by it: `undefined` for an unknown number, a number
 * whose owner turned findability off, and a user without a wallet alike.
 */
export async function findWalletByPhone(db: Kysely<Database>, e164: string): Promise<Address | undefined> {
  const row = await db
    .selectFrom('identities')
    .select('user_id')
    .where('kind', '=', 'phone')
    .where('value', '=', e164)
    .where('findable', '=', 1)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return (await accountWallet(db, row.user_id))?.address;
}
