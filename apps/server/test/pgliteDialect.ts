import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Kysely over PGlite (PostgreSQL in WebAssembly, in process), for the tests. Kysely 0.29 ships such a
 * dialect, but 0.29 needs Node 22 and Dial supports Node 20, so this is the small part of it the tests use:
 * PostgreSQL's adapter, compiler and introspector over PGlite's one connection, with transactions. No
 * streaming, no savepoints (Dial uses neither).
 *
 * PGlite is a single session, so the driver hands out one connection at a time: a query or transaction
 * waits for the one before it to finish, as with Kysely's SQLite driver. `destroy()` closes the PGlite.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly config: { pglite: PGlite }) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.config.pglite);
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  readonly #pglite: PGlite;
  readonly #connection: PGliteConnection;
  /** Settles when the connection is released by whoever holds it. */
  #released: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
    this.#connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.#pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    // Wait in line: each caller takes the promise left by the one before it.
    const previous = this.#released;
    let release!: () => void;
    this.#released = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    this.#release = release;
    return this.#connection;
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let begin = 'start transaction';
    if (settings.isolationLevel !== undefined) begin += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode !== undefined) begin += ` ${settings.accessMode}`;
    await connection.executeQuery(CompiledQuery.raw(begin));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    if (!this.#pglite.closed) await this.#pglite.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  readonly #pglite: PGlite;

  constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, affectedRows } = await this.#pglite.query<R>(
      compiledQuery.sql,
      [...compiledQuery.parameters],
      {
        rowMode: 'object',
      },
    );
    return {
      rows,
      ...(affectedRows === undefined ? {} : { numAffectedRows: BigInt(affectedRows) }),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is refused before anything could be yielded.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by this PGlite dialect');
  }
}
