import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './database.js';
import { directReader } from './directReader.js';

/** The name of each prepared query's SQL, as PostgreSQL prepares it (`withPreparedStatements`). */
const statementNames = new Map<string, string>();

/**
 * The statement name of `sql` when it is a {@link preparedQuery}'s (compiled for PostgreSQL), else
 * `undefined`: the same SQL always has the same name, on every connection.
 */
export function preparedStatementName(sql: string): string | undefined {
  return statementNames.get(sql);
}

/**
 * A query for the hot path: built and compiled by Kysely once per database, then run with new parameter
 * values, so a request spends nothing on building SQL. On SQLite the statement is prepared once too (the
 * statement cache of `createSqliteDatabase`), and on PostgreSQL once per connection (`withPreparedStatements`);
 * outside a transaction it runs on the driver directly (`directReader`).
 *
 * `build` receives one placeholder per parameter and must use each as a bound value (`where('x', '=', p)`,
 * `limit(p)`, ``sql`${p}` ``), never as SQL text nor as a value to compute with: whatever a parameter's type,
 * its placeholder is a marker string at build time. A placeholder that does not reach the compiled parameters
 * is an error at the first run.
 *
 * @example
 * const findSessionRow = preparedQuery((db, tokenHash) =>
 *   db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash),
 * );
 * const rows = await findSessionRow(db, hash);
 */
export function preparedQuery<Row, Params extends unknown[]>(
  build: (db: Kysely<Database>, ...placeholders: Params) => Compilable<Row>,
): PreparedQuery<Row, Params> {
  const compiled = new WeakMap<
    Kysely<Database>,
    { sql: string; slots: Array<number | { value: unknown }> }
  >();
  const prepare = (db: Kysely<Database>, values: Params) => {
    let query = compiled.get(db);
    if (query === undefined) {
      query = compile(db, build, values.length);
      compiled.set(db, query);
    }
    const parameters = query.slots.map((slot) => (typeof slot === 'number' ? values[slot] : slot.value));
    return { sql: query.sql, parameters };
  };
  const read = (db: Kysely<Database>, values: Params, first: boolean): Row[] | Promise<Row[]> => {
    const { sql, parameters } = prepare(db, values);
    // The same statement, so the same rows, as through Kysely, without its connection hand-over: on SQLite a
    // read runs on the connection at once, on PostgreSQL on the pool.
    const rows = directReader(db)?.(sql, parameters, first);
    if (rows !== undefined) return rows as Row[] | Promise<Row[]>;
    return db.executeQuery<Row>(CompiledQuery.raw(sql, parameters)).then((result) => result.rows);
  };
  const now = (db: Kysely<Database>, ...values: Params) => read(db, values, false);
  const query = async (db: Kysely<Database>, ...values: Params) => now(db, ...values);
  query.now = now;
  query.firstNow = (db: Kysely<Database>, ...values: Params): Row | undefined | Promise<Row | undefined> => {
    const rows = read(db, values, true);
    return Array.isArray(rows) ? rows[0] : rows.then((found) => found[0]);
  };
  return query;
}

/** A {@link preparedQuery}: its rows, as a promise. */
export interface PreparedQuery<Row, Params extends unknown[]> {
  (db: Kysely<Database>, ...values: Params): Promise<Row[]>;
  /**
   * The rows at once where the database can answer synchronously (a read on SQLite, outside a transaction),
   * else a promise of them: for the hot path, where each await is a turn of the microtask queue.
   */
  now(db: Kysely<Database>, ...values: Params): Row[] | Promise<Row[]>;
  /**
   * The first row (`undefined` for none), as {@link now} gives its rows: for a query of one row by a unique key,
   * which on SQLite then stops at that row.
   */
  firstNow(db: Kysely<Database>, ...values: Params): Row | undefined | Promise<Row | undefined>;
}

function compile<Params extends unknown[]>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, ...placeholders: Params) => Compilable<unknown>,
  count: number,
): { sql: string; slots: Array<number | { value: unknown }> } {
  // Values no caller passes, so each compiled parameter can be told apart: a placeholder, or a constant of
  // the query itself.
  const placeholders = Array.from({ length: count }, (_, index) => `\u0000dial-parameter-${index}\u0000`);
  const { sql, parameters } = build(db, ...(placeholders as Params)).compile();
  const slots = parameters.map((parameter) => {
    const index = placeholders.indexOf(parameter as string);
    return index === -1 ? { value: parameter } : index;
  });
  placeholders.forEach((_, index) => {
    if (!slots.includes(index)) throw new Error(`preparedQuery: parameter ${index} is not a bound value`);
  });
  if (!statementNames.has(sql)) statementNames.set(sql, `dial_prepared_${statementNames.size + 1}`);
  return { sql, slots };
}
