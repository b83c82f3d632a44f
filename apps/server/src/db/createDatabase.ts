import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { Kysely, type SqliteDatabase as KyselySqliteDatabase, PostgresDialect, SqliteDialect } from 'kysely';
import type pg from 'pg';
import type { AppConfig } from '../config/index.js';
import type { Database } from './database.js';
import { type DirectReader, registerDirectReader } from './directReader.js';
import { preparedStatementName } from './preparedQuery.js';

/** The file name of the SQLite database inside `DATA_DIR`. */
export const SQLITE_FILE_NAME = 'dial.sqlite';

/**
 * Opens the database the configuration names: PostgreSQL through a `pg` pool when `databaseUrl` is set,
 * else the SQLite file `dataDir/dial.sqlite` (created when missing) in WAL mode. Only the driver in use is
 * loaded, at the first query. Run {@link migrateToLatest} before use; call `destroy()` on shutdown.
 */
export function createDatabase(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>): Kysely<Database> {
  const { databaseUrl } = config;
  if (databaseUrl !== undefined) {
    return createPostgresDatabase(async () => {
      const { createPostgresPool } = await import('./postgresPool.js');
      return createPostgresPool({ connectionString: databaseUrl, max: 10 });
    });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return createSqliteDatabase(join(config.dataDir, SQLITE_FILE_NAME));
}

/**
 * A Kysely over a `pg` pool (`createPostgresPool`), or a function that makes one at the first query, with
 * the hot path's queries as named prepared statements (`withPreparedStatements`), run on the pool directly
 * outside a transaction once it is open (`directReader`).
 */
export function createPostgresDatabase(pool: pg.Pool | (() => Promise<pg.Pool>)): Kysely<Database> {
  let opened: pg.Pool | undefined;
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: async () => {
        const { withPreparedStatements } = await import('./postgresPool.js');
        opened = typeof pool === 'function' ? await pool() : pool;
        return withPreparedStatements(opened);
      },
    }),
  });
  registerDirectReader(db, (sql, parameters) => {
    const name = preparedStatementName(sql);
    if (opened === undefined || name === undefined) return undefined;
    // The pool lends a client for the statement and takes it back, as Kysely would, with less on the way.
    return opened.query({ name, text: sql, values: [...parameters] }).then((result) => result.rows);
  });
  return db;
}

/**
 * A Kysely over a better-sqlite3 database at `filename` (`':memory:'` for tests), set up as Dial needs,
 * opened at the first query.
 */
export function createSqliteDatabase(filename: string): Kysely<Database> {
  let reader: DirectReader | undefined;
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({
      database: async () => {
        const { default: Sqlite } = await import('better-sqlite3');
        const sqlite = new Sqlite(filename);
        // WAL lets readers run while one writer writes; busy_timeout waits for a lock rather than failing.
        sqlite.pragma('journal_mode = WAL');
        sqlite.pragma('busy_timeout = 5000');
        sqlite.pragma('foreign_keys = ON');
        // The temporary b-trees a statement sorts or merges in (ORDER BY, UNION ALL) kept in memory, not set
        // up for a file on every run: the history's page (three sorted reads merged) took 60 µs with a file
        // behind them, 5 µs without. They hold what a statement sorts or merges, which for Dial's statements
        // (read through indexes, with limits) is some rows, not a table.
        sqlite.pragma('temp_store = MEMORY');
        const cached = withStatementCache(sqlite);
        const read = rowReader(sqlite);
        reader = (sql, parameters, first) => {
          // Inside another query's transaction (Kysely holds the one connection for it across awaits), a read
          // would see its uncommitted writes: that read waits its turn through Kysely instead.
          if (!sqlite.open || sqlite.inTransaction) return undefined;
          return read(sql, parameters, first);
        };
        return cached;
      },
    }),
  });
  registerDirectReader(db, (sql, parameters, first) => reader?.(sql, parameters, first));
  return db;
}

/** How many prepared statements a SQLite database keeps: Dial's queries are far fewer than this. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The database as Kysely's SQLite driver uses it, with its statements prepared once: Kysely prepares the SQL
 * of every query it runs, which costs as much as running a small one. Statements are kept by their SQL text,
 * the least recently used dropped beyond {@link STATEMENT_CACHE_SIZE}. Sharing one is safe: Kysely runs one
 * query at a time on SQLite's single connection, and SQLite prepares a statement again by itself when the
 * schema changed under it.
 */
function withStatementCache(
  sqlite: SqliteDatabase.Database,
): KyselySqliteDatabase & { prepare(sql: string): SqliteDatabase.Statement } {
  return { close: () => sqlite.close(), prepare: statementCache(sqlite) };
}

/**
 * Prepares each SQL once: the statements kept by their text, the least recently used dropped beyond the size.
 * A statement's last use is a number stamped on its entry, not its place in the map's order: keeping that order
 * took a delete and a set on every use, about half a microsecond of each signed-in request (docs/BENCHMARKS.md).
 */
export function statementCache(
  sqlite: SqliteDatabase.Database,
  size = STATEMENT_CACHE_SIZE,
): (sql: string) => SqliteDatabase.Statement {
  const statements = new Map<string, { statement: SqliteDatabase.Statement; used: number }>();
  let uses = 0;
  return (sql) => {
    const entry = statements.get(sql);
    if (entry !== undefined) {
      entry.used = ++uses;
      return entry.statement;
    }
    const statement = sqlite.prepare(sql);
    if (statements.size >= size) {
      let oldest: string | undefined;
      let oldestUse = Number.POSITIVE_INFINITY;
      for (const [key, { used }] of statements) {
        if (used < oldestUse) {
          oldest = key;
          oldestUse = used;
        }
      }
      statements.delete(oldest!);
    }
    statements.set(sql, { statement, used: ++uses });
    return statement;
  };
}

/**
 * The rows of a read (`undefined` when the SQL returns no rows: not a read), each made into an object here
 * from the row's values rather than by better-sqlite3. better-sqlite3 builds a row object through V8's API,
 * setting each column on it by name, and the objects it makes come in shapes that later reads of their
 * fields find many of; built in JavaScript, the same columns in the same order, they share one. On the hot
 * path (the session read of every signed-in request) that took about a sixth off the server's CPU a
 * request (`GET /api/me`, 63 to 53 µs).
 * The same rows and values as `statement.all()` gives (raw mode changes only their container). The
 * statements are the reader's own: raw mode is a statement's setting, and Kysely's keep giving objects.
 * With `first`, only the first row (none or one), read with `statement.get()`: one step of the statement,
 * where `all()` takes another to find that no row follows (on the session read, most of a microsecond).
 */
export function rowReader(
  sqlite: SqliteDatabase.Database,
): (
  sql: string,
  parameters: readonly unknown[],
  first?: boolean,
) => Array<Record<string, unknown>> | undefined {
  const prepare = statementCache(sqlite);
  const columns = new WeakMap<SqliteDatabase.Statement, Columns>();
  return (sql, parameters, first = false) => {
    const statement = prepare(sql);
    if (!statement.reader) return undefined;
    let known = columns.get(statement);
    if (known === undefined) {
      known = columnsOf(statement);
      columns.set(statement, known);
    }
    const rows = first
      ? [statement.get(parameters) as unknown[] | undefined]
      : (statement.all(parameters) as unknown[][]);
    const firstRow = rows[0];
    if (firstRow === undefined) return [];
    // A statement SQLite prepared again after the schema changed may have other columns (`select *`).
    if (firstRow.length !== known.names.length) {
      known = columnsOf(statement);
      columns.set(statement, known);
    }
    const made: Array<Record<string, unknown>> = [];
    for (const values of rows as unknown[][]) made.push(known.row(values));
    return made;
  };
}

/** A read statement's columns: their names in order, and the row object of a raw row. */
interface Columns {
  names: readonly string[];
  row: (values: readonly unknown[]) => Record<string, unknown>;
}

/** A read statement's columns ({@link Columns}), with the statement put in raw mode (rows as arrays). */
function columnsOf(statement: SqliteDatabase.Statement): Columns {
  statement.raw(true);
  const names = statement.columns().map((column) => column.name);
  return { names, row: rowMaker(names) };
}

/**
 * Makes the row object of a raw row: each value under its column's name, the last of two columns of one name.
 * An object literal of the columns, compiled once per statement, so that every row of a statement is made
 * whole in one shape (setting the names one by one took a lookup of each name on every row).
 */
function rowMaker(names: readonly string[]): (values: readonly unknown[]) => Record<string, unknown> {
  if (names.includes('__proto__')) {
    // In a literal, `__proto__` would set the prototype: such a row is made name by name.
    return (values) => {
      const row: Record<string, unknown> = {};
      for (let index = 0; index < values.length; index++) row[names[index]!] = values[index];
      return row;
    };
  }
  const fields = names.map((name, index) => `${JSON.stringify(name)}: values[${index}]`);
  return new Function('values', `return { ${fields.join(', ')} };`) as (
    values: readonly unknown[],
  ) => Record<string, unknown>;
}
