import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * Runs a statement that returns rows (a `select`) on a SQLite database's connection at once, synchronously
 * (better-sqlite3 is synchronous), with its statement prepared once: its rows, or `undefined` when it cannot
 * run now (the database is not open yet, or a transaction is open on the connection) or the statement
 * returns no rows; then the caller goes through Kysely.
 */
export type SqliteReader = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

const readers = new WeakMap<Kysely<Database>, SqliteReader>();

/** Records the reader of a SQLite database made by `createSqliteDatabase`. */
export function registerSqliteReader(db: Kysely<Database>, reader: SqliteReader): void {
  readers.set(db, reader);
}

/**
 * The {@link SqliteReader} of `db` when it is a SQLite database made by `createSqliteDatabase` (not a
 * transaction of one, nor another database), else `undefined`.
 */
export function sqliteReader(db: Kysely<Database>): SqliteReader | undefined {
  return readers.get(db);
}
