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
