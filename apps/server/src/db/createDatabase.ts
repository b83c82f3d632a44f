import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { AppConfig } from '../config.js';
import type { Database } from './database.js';

/** The file name of the SQLite database inside `DATA_DIR`. */
export const SQLITE_FILE_NAME = 'dial.sqlite';

/**
 * Opens the database the configuration names: PostgreSQL through a `pg` pool when `databaseUrl` is set,
 * else the SQLite file `dataDir/dial.sqlite` (created when missing) in WAL mode. Run
 * {@link migrateToLatest} before use; call `destroy()` on shutdown.
 */
export function createDatabase(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>): Kysely<Database> {
  if (config.databaseUrl !== undefined) {
    return new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: config.databaseUrl, max: 10 }) }),
    });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return createSqliteDatabase(join(config.dataDir, SQLITE_FILE_NAME));
}

/** A Kysely over a better-sqlite3 database at `filename` (`':memory:'` for tests), set up as Dial needs. */
export function createSqliteDatabase(filename: string): Kysely<Database> {
  const sqlite = new SqliteDatabase(filename);
  // WAL lets readers run while one writer writes; busy_timeout waits for a lock rather than failing at once.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
