import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { preparedStatementName } from './preparedQuery.js';

/**
 * A `pg` pool that survives PostgreSQL going away. `pg` reports a dropped connection as an `error` event, on
 * the pool for an idle connection and on the connection itself while it is checked out between queries;
 * with no listener either one is an uncaught exception that ends the process. Here both are listened to:
 * the dropped connection is discarded (pg marks it unusable), the query running on it fails as usual, and
 * `GET /api/ready` reports the database until it is back.
 */
export function createPostgresPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  const ignore = () => {};
  pool.on('error', ignore);
  pool.on('connect', (client) => client.on('error', ignore));
  return pool;
}

/**
 * The pool as Kysely's PostgreSQL driver uses it, where the hot path's queries (`preparedQuery`) run as named
 * prepared statements: each connection parses and plans one of them once, not on every request (its plan
 * costs more than running it). Every other query runs as before.
 *
 * Behind PgBouncer this needs session pooling, or transaction pooling with prepared statements on
 * (`max_prepared_statements`, PgBouncer 1.21 or later).
 */
export function withPreparedStatements(pool: pg.Pool): PostgresPool {
  // One wrapper per connection: Kysely keeps its own state per client object.
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (wrapped === undefined) {
        const query = (sqlOrCursor: unknown, parameters?: readonly unknown[]) => {
          // A cursor (pg-cursor), which Dial does not use: as it is.
          if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as pg.Submittable);
          const values = parameters === undefined ? [] : [...parameters];
          const name = preparedStatementName(sqlOrCursor);
          return name === undefined
            ? client.query(sqlOrCursor, values)
            : client.query({ name, text: sqlOrCursor, values });
        };
        wrapped = { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}
