import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { DeviceInfo } from '@dial/api';
import { DialError, MINUTE_MS } from '@dial/core';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, DeviceHow, WalletDevicesTable } from '../db/database.js';
import { dialectOf } from '../db/dialectOf.js';
import { isUniqueViolation } from '../db/isUniqueViolation.js';
import { decryptAuthShare, encryptAuthShare } from './shareCipher.js';

/** A device to enroll: its name and how it came, its auth share and the hash of its unlock secret. */
export interface NewDevice {
  userId: string;
  name: string;
  how: DeviceHow;
  authShare: Uint8Array;
  /** SHA-256 (hex) of the device's unlock secret. */
  secretHash: string;
}

/** A device as its owner sees it. */
export function toDeviceInfo(
  row: Pick<WalletDevicesTable, 'id' | 'name' | 'how' | 'enrolled_at' | 'last_used_at'>,
): DeviceInfo {
  return {
    id: row.id,
    name: row.name,
    how: row.how,
    enrolledAt: row.enrolled_at,
    lastUsedAt: row.last_used_at,
  };
}

/** SHA-256 of a device's unlock secret as it is sent (base64url text), hex: what `secret_hash` stores. */
export function hashDeviceSecret(secret: string): string {
  return createHash('sha256').update(Buffer.from(secret, 'base64url')).digest('hex');
}

/**
 * Inserts a device row within `trx`: its auth share encrypted bound to the user and the new device's id.
 *
 * @throws {DialError} `invalid_data` when another device already has this secret hash (a browser must make a
 *   fresh secret for each enrolment).
 */
export async function insertDevice(
  trx: Kysely<Database>,
  key: Uint8Array,
  device: NewDevice,
  now: Date,
): Promise<DeviceInfo> {
  const id = randomUUID();
  const encrypted = encryptAuthShare(key, device.authShare, device.userId, id);
  const row = {
    id,
    user_id: device.userId,
    name: device.name,
    how: device.how,
    secret_hash: device.secretHash,
    auth_share_ciphertext: encrypted.ciphertext,
    iv: encrypted.iv,
    key_version: encrypted.keyVersion,
    enrolled_at: now.toISOString(),
    last_used_at: now.toISOString(),
    removed_at: null,
  };
  try {
    await trx.insertInto('wallet_devices').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new DialError('invalid_data', {
        message: 'This device secret is already in use. Make a new one for each device.',
        details: 'secret hash already enrolled',
      });
    }
    throw error;
  }
  return toDeviceInfo(row);
}

/**
 * Enrolls one more device of the user's wallet, in one transaction: refuses past `maxDevices` un-removed
 * devices (two enrolments of one user run one at a time on PostgreSQL: the user's row is locked first; SQLite
 * writes one transaction at a time), inserts it, ends the wallet's legacy split (`legacy_split = 0`: the
 * one auth share of a wallet registered before devices is given no more), and runs `also` (a link's
 * confirmation) in the same transaction.
 *
 * @throws {DialError} `wallet_not_found`, `devices_limit_reached`, `invalid_data` (secret hash in use), or
 *   what `also` throws (nothing is then stored).
 */
export async function enrollDevice(
  db: Kysely<Database>,
  key: Uint8Array,
  device: NewDevice,
  maxDevices: number,
  now: Date,
  also?: (trx: Transaction<Database>, enrolled: DeviceInfo) => Promise<void>,
): Promise<DeviceInfo> {
  const { userId } = device;
  return db.transaction().execute(async (trx) => {
    if (dialectOf(db) === 'postgres') {
      await sql`select id from users where id = ${userId} for update`.execute(trx);
    }
    const wallet = await trx
      .selectFrom('wallets')
      .select('user_id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (wallet === undefined) throw new DialError('wallet_not_found');
    if ((await countDevices(trx, userId)) >= maxDevices) throw new DialError('devices_limit_reached');
    const enrolled = await insertDevice(trx, key, device, now);
    await trx.updateTable('wallets').set({ legacy_split: 0 }).where('user_id', '=', userId).execute();
    await also?.(trx, enrolled);
    return enrolled;
  });
}

/** How many devices can open the user's wallet (removed ones do not count). */
export async function countDevices(db: Kysely<Database>, userId: string): Promise<number> {
  const { count } = await db
    .selectFrom('wallet_devices')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('user_id', '=', userId)
    .where('removed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The devices that can open the user's wallet, the most recently used first. */
export async function listDevices(db: Kysely<Database>, userId: string): Promise<DeviceInfo[]> {
  const rows = await db
    .selectFrom('wallet_devices')
    .select(['id', 'name', 'how', 'enrolled_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('removed_at', 'is', null)
    .orderBy('last_used_at', 'desc')
    .orderBy('enrolled_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toDeviceInfo);
}

/**
 * One of the user's un-removed devices.
 *
 * @throws {DialError} `device_not_found` for another user's device, a removed one, or an id that does not
 *   exist, alike.
 */
export async function ownLiveDevice(db: Kysely<Database>, userId: string, id: string) {
  const row = await db
    .selectFrom('wallet_devices')
    .select(['id', 'name', 'how', 'enrolled_at', 'last_used_at'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined) throw new DialError('device_not_found');
  return row;
}

/**
 * A device's auth share, for the browser that shows its unlock secret: the row must be the user's and the
 * secret's SHA-256 must equal the stored hash (compared in constant time); the device must not be removed.
 * Marks it used, at most once a minute (one conditional update).
 *
 * @throws {DialError} `device_not_found` for an unknown id, another user's device or a wrong secret alike
 *   (nothing tells them apart); `device_removed` for a removed device with its right secret.
 */
export async function unlockDevice(
  db: Kysely<Database>,
  key: Uint8Array,
  userId: string,
  id: string,
  secret: string,
  now: Date,
): Promise<{ authShare: Uint8Array; device: DeviceInfo }> {
  const row = await db
    .selectFrom('wallet_devices')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  // Hashed whether or not the row exists, so a made-up id costs what a wrong secret does.
  const given = Buffer.from(hashDeviceSecret(secret), 'hex');
  const stored = Buffer.from(row?.secret_hash ?? '00'.repeat(32), 'hex');
  const matches = stored.length === given.length && timingSafeEqual(stored, given);
  if (row === undefined || !matches) throw new DialError('device_not_found');
  if (
    row.removed_at !== null ||
    row.auth_share_ciphertext === null ||
    row.iv === null ||
    row.key_version === null
  ) {
    throw new DialError('device_removed');
  }
  const authShare = decryptAuthShare(
    key,
    { ciphertext: row.auth_share_ciphertext, iv: row.iv, keyVersion: Number(row.key_version) },
    userId,
    row.id,
  );
  let lastUsedAt = row.last_used_at;
  const minuteAgo = new Date(now.getTime() - MINUTE_MS).toISOString();
  if (row.last_used_at <= minuteAgo) {
    const updated = await db
      .updateTable('wallet_devices')
      .set({ last_used_at: now.toISOString() })
      .where('id', '=', row.id)
      .where('user_id', '=', userId)
      .where('last_used_at', '<=', minuteAgo)
      .returning('last_used_at')
      .executeTakeFirst();
    if (updated !== undefined) lastUsedAt = updated.last_used_at;
  }
  return { authShare, device: toDeviceInfo({ ...row, last_used_at: lastUsedAt }) };
}

/**
 * Removes one of the user's devices: deletes its auth share (the ciphertext, nonce and key version are set
 * to null) and records when, so that the share its browser holds opens nothing, ever, with any session.
 *
 * @returns the removed device's name.
 * @throws {DialError} `device_not_found` for an id that is not an un-removed device of the user's.
 */
export async function removeDevice(
  db: Kysely<Database>,
  userId: string,
  id: string,
  now: Date,
): Promise<{ name: string }> {
  const removed = await db
    .updateTable('wallet_devices')
    .set({ auth_share_ciphertext: null, iv: null, key_version: null, removed_at: now.toISOString() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('removed_at', 'is', null)
    .returning('name')
    .executeTakeFirst();
  if (removed === undefined) throw new DialError('device_not_found');
  return removed;
}
