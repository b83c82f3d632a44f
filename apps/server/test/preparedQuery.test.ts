import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase } from '../src/db/createDatabase.js';
import { migrateToLatest } from '../src/db/migrateToLatest.js';
import { preparedQuery } from '../src/db/preparedQuery.js';
import { DIALECTS, useTestDatabase } from './databases.js';

// A prepared query runs on the driver directly outside a transaction (SQLite's connection, PostgreSQL's pool:
// directReader) and through Kysely inside one: the same rows either way, and a transaction's own writes
// visible to the queries made in it.

const serverUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

const selectUser = preparedQuery((db, id: string) =>
  db.selectFrom('users').select(['id', 'created_at', 'phone']).where('id', '=', id),
);

describe.each(DIALECTS)('preparedQuery on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('gives the rows Kysely gives, and inside a transaction sees what it wrote', async () => {
    const id = randomUUID();
    await db().insertInto('users').values({ id, created_at: '2030-01-01T12:00:00.000Z' }).execute();
    const expected = await db().selectFrom('users').select(['id', 'created_at', 'phone']).execute();
    expect(expected).toEqual([{ id, created_at: '2030-01-01T12:00:00.000Z', phone: null }]);
    expect(await selectUser(db(), id)).toEqual(expected);
    expect(await selectUser.now(db(), id)).toEqual(expected);
    expect(await selectUser(db(), randomUUID())).toEqual([]);
    // The first row alone: at once on SQLite (no promise to wait for), the same row on PostgreSQL.
    const first = selectUser.firstNow(db(), id);
    if (dialect === 'sqlite') expect(first).not.toBeInstanceOf(Promise);
    expect(await first).toEqual(expected[0]);
    expect(await selectUser.firstNow(db(), randomUUID())).toBeUndefined();

    const written = randomUUID();
    const inside = await db()
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({ id: written, created_at: '2030-01-02T12:00:00.000Z' })
          .execute();
        return { rows: await selectUser(trx, written), first: await selectUser.firstNow(trx, written) };
      });
    expect(inside.rows).toEqual([{ id: written, created_at: '2030-01-02T12:00:00.000Z', phone: null }]);
    expect(inside.first).toEqual(inside.rows[0]);
  });

  it('binds parameters of any type: a number stays a number', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()].sort();
    for (const id of ids) {
      await db().insertInto('users').values({ id, created_at: '2030-01-01T12:00:00.000Z' }).execute();
    }
    const newest = preparedQuery((db, createdAt: string, count: number) =>
      db.selectFrom('users').select('id').where('created_at', '=', createdAt).orderBy('id').limit(count),
    );
    expect(await newest(db(), '2030-01-01T12:00:00.000Z', 2)).toEqual([{ id: ids[0] }, { id: ids[1] }]);
    expect(await newest(db(), '2030-01-01T12:00:00.000Z', 3)).toEqual(ids.map((id) => ({ id })));
  });
});

describe('SQLite as Dial opens it', () => {
  const db = useTestDatabase('sqlite');

  it('keeps the b-trees a statement sorts and merges in memory, not behind a temporary file', async () => {
    // What a statement with ORDER BY and UNION ALL costs at every run (the history's page: 60 µs, not 5).
    const { rows } = await sql<{ temp_store: number }>`pragma temp_store`.execute(db());
    expect(rows).toEqual([{ temp_store: 2 }]);
  });
});

describe.runIf(serverUrl !== undefined)(
  'preparedQuery on a PostgreSQL server (needs TEST_DATABASE_URL)',
  () => {
    it('runs on the pool as a named prepared statement, and sees only what is committed', async () => {
      const admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
      const schema = `test_${randomUUID().replaceAll('-', '')}`;
      await admin.query(`create schema ${schema}`);
      const pool = new pg.Pool({ connectionString: serverUrl, max: 3, options: `-c search_path=${schema}` });
      const db = createPostgresDatabase(pool);
      try {
        await migrateToLatest(db);
        const id = randomUUID();
        await db.insertInto('users').values({ id, created_at: '2030-01-01T12:00:00.000Z' }).execute();
        const query = vi.spyOn(pool, 'query');
        expect(await selectUser(db, id)).toEqual([
          { id, created_at: '2030-01-01T12:00:00.000Z', phone: null },
        ]);
        expect(query).toHaveBeenCalledTimes(1);
        expect(query.mock.calls[0]![0]).toEqual({
          name: expect.stringMatching(/^dial_prepared_\d+$/),
          text: expect.stringContaining('from "users"'),
          values: [id],
        });

        // A transaction's uncommitted row: seen inside it (on its connection), not by the pool's other clients.
        const written = randomUUID();
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('users')
            .values({ id: written, created_at: '2030-01-02T12:00:00.000Z' })
            .execute();
          expect(await selectUser(trx, written)).toHaveLength(1);
          expect(await selectUser(db, written)).toEqual([]);
        });
        expect(await selectUser(db, written)).toHaveLength(1);
      } finally {
        await db.destroy();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    });
  },
);
