import { type Kysely, SqliteAdapter } from 'kysely';
import type { Database } from './database.js';

/** Which SQL a database speaks: SQLite, or PostgreSQL (a server, or PGlite). */
export type SqlDialect = 'sqlite' | 'postgres';

/** Tells the dialect of a Kysely instance from its adapter. */
export function dialectOf(db: Kysely<Database>): SqlDialect {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
}
