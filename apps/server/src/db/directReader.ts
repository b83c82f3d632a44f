import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * Runs a statement of `preparedQuery` on the database's driver directly, without the query builder's
 * connection hand-over: on SQLite at once, synchronously, on the connection (better-sqlite3 is synchronous)
 * with the statement prepared once; on PostgreSQL on the pool, as the named prepared statement Kysely's path
 * would use. Its rows (or a promise of them), or `undefined` when it cannot run so (SQLite: the database is not
 * open yet, a transaction is open on the connection, or the statement returns no rows; PostgreSQL: the pool is
 * not open yet): then the caller goes through Kysely. With `first`, at most the first row: on SQLite the
 * statement stops there (better-sqlite3's `get`) rather than stepping on to find there is no other.
 */
export type DirectReader = (
  sql: string,
  parameters: readonly unknown[],
  first?: boolean,
) => unknown[] | Promise<unknown[]> | undefined;

const readers = new WeakMap<Kysely<Database>, DirectReader>();

/** Records the reader of a database made by `createSqliteDatabase` or `createPostgresDatabase`. */
export function registerDirectReader(db: Kysely<Database>, reader: DirectReader): void {
  readers.set(db, reader);
}

/**
 * The {@link DirectReader} of `db` when it is a database made by `createSqliteDatabase` or
 * `createPostgresDatabase` (not a transaction of one, whose statements must run on its connection, nor another
 * database), else `undefined`.
 */
export function directReader(db: Kysely<Database>): DirectReader | undefined {
  return readers.get(db);
}
