import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Opens the browser-test server's SQLite database (the one `npm start` would use, in the run's DATA_DIR),
 * runs `change` in a transaction and closes it. For states that only time would bring about; everything
 * else goes through the app.
 */
function withDatabase<T>(change: (db: Database.Database) => T): T {
  const dataDir = process.env.E2E_DATA_DIR;
  if (dataDir === undefined) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  const db = new Database(join(dataDir, 'dial.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    return db.transaction(() => change(db))();
  } finally {
    db.close();
  }
}

/**
 * Makes every session of the wallet's owner look signed in `minutes` ago, so that actions needing a fresh
 * one-time code ask for one. Returns how many sessions changed.
 */
export function ageSessions(walletAddress: string, minutes: number): number {
  const createdAt = new Date(Date.now() - minutes * 60_000).toISOString();
  return withDatabase(
    (db) =>
      db
        .prepare(
          'UPDATE sessions SET created_at = ? WHERE user_id = (SELECT user_id FROM wallets WHERE lower(address) = lower(?))',
        )
        .run(createdAt, walletAddress).changes,
  );
}

/** A recovery share as the server's database holds it: what a thief who copies the database gets. */
export interface StoredRecoveryRow {
  generation: number;
  method: string;
  ciphertext: string;
  kdf: Record<string, unknown>;
}

/** The stored recovery share of the wallet at `walletAddress`, read straight from the database. */
export function readRecoveryShare(walletAddress: string): StoredRecoveryRow | undefined {
  return withDatabase((db) => {
    const row = db
      .prepare(
        'SELECT generation, method, ciphertext, kdf FROM recovery_shares WHERE user_id = (SELECT user_id FROM wallets WHERE lower(address) = lower(?))',
      )
      .get(walletAddress) as
      | { generation: number; method: string; ciphertext: string; kdf: string }
      | undefined;
    return row === undefined ? undefined : { ...row, kdf: JSON.parse(row.kdf) as Record<string, unknown> };
  });
}

/**
 * Moves the recovery tries the wallet's owner used this hour (setting recovery up uses one) into an hour
 * before the last, as if they were used then: the next try starts the hour's count afresh, as it does for
 * an owner who recovers on a new browser long after setting recovery up. Returns how many counters moved.
 */
export function ageRecoveryTries(walletAddress: string): number {
  const longAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
  return withDatabase(
    (db) =>
      db
        .prepare(
          "UPDATE rate_limits SET window_start = ? WHERE key = 'recovery:user:' || (SELECT user_id FROM wallets WHERE lower(address) = lower(?))",
        )
        .run(longAgo, walletAddress).changes,
  );
}

/**
 * Puts the wallet at `walletAddress` back as it was before devices (issue 28), with this browser's device
 * split as its one split: the device's auth share becomes the wallet's (decrypted under the server's derived
 * key, bound to the device, and encrypted again bound to the user alone, as wallets were), the devices are
 * deleted and `legacy_split` set, as migration 0014 leaves a wallet registered before it. Returns the device
 * that was removed.
 */
export function makeLegacyWallet(walletAddress: string): { userId: string; deviceId: string } {
  const dataDir = process.env.E2E_DATA_DIR;
  if (dataDir === undefined) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  const master = Buffer.from(readFileSync(join(dataDir, 'share-encryption.key'), 'utf8').trim(), 'hex');
  const key = Buffer.from(hkdfSync('sha256', master, new Uint8Array(0), 'dial/auth-share', 32));
  return withDatabase((db) => {
    const device = db
      .prepare(
        'SELECT d.id, d.user_id, d.auth_share_ciphertext, d.iv FROM wallet_devices d JOIN wallets w ON w.user_id = d.user_id WHERE lower(w.address) = lower(?) AND d.removed_at IS NULL',
      )
      .get(walletAddress) as { id: string; user_id: string; auth_share_ciphertext: string; iv: string };
    const data = Buffer.from(device.auth_share_ciphertext, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(device.iv, 'base64'));
    decipher.setAAD(Buffer.from(`${device.user_id}/device/${device.id}`, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - 16));
    const share = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(device.user_id, 'utf8'));
    const sealed = Buffer.concat([cipher.update(share), cipher.final(), cipher.getAuthTag()]);
    db.prepare(
      'UPDATE wallets SET auth_share_ciphertext = ?, iv = ?, key_version = 1, legacy_split = 1 WHERE user_id = ?',
    ).run(sealed.toString('base64'), iv.toString('base64'), device.user_id);
    db.prepare('DELETE FROM wallet_devices WHERE user_id = ?').run(device.user_id);
    return { userId: device.user_id, deviceId: device.id };
  });
}

/** The devices of the wallet at `walletAddress` that are not removed, as the database holds them. */
export function readDevices(walletAddress: string): { how: string }[] {
  return withDatabase(
    (db) =>
      db
        .prepare(
          'SELECT d.how FROM wallet_devices d JOIN wallets w ON w.user_id = d.user_id WHERE lower(w.address) = lower(?) AND d.removed_at IS NULL',
        )
        .all(walletAddress) as { how: string }[],
  );
}

/**
 * Uses up the account's sponsored sends for today (SPONSOR_ACCOUNT_DAILY_LIMIT, 10 by default), as ten sends
 * would: the server then offers this account no sponsored fee until tomorrow, and its sends pay their own
 * fee (the ordinary EIP-1559 transaction).
 */
export function useUpFreeSends(walletAddress: string): void {
  const changed = withDatabase(
    (db) =>
      db
        .prepare(
          `INSERT INTO sponsor_usage (kind, subject, day, count, cost_wei)
           SELECT 'account', user_id, ?, 10, '0' FROM wallets WHERE lower(address) = lower(?)`,
        )
        .run(new Date().toISOString().slice(0, 10), walletAddress).changes,
  );
  if (changed !== 1) throw new Error(`no wallet ${walletAddress} to use up the free sends of`);
}
