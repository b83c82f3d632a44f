import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PGliteDialect } from './pgliteDialect.js';

interface TestTables {
  counters: { name: string; value: number };
}

describe('PGliteDialect (the tests’ Kysely over PGlite)', () => {
  let pglite: PGlite;
  let db: Kysely<TestTables>;

  beforeAll(async () => {
    pglite = await PGlite.create();
    db = new Kysely<TestTables>({ dialect: new PGliteDialect({ pglite }) });
  });
  afterAll(async () => {
    await db.destroy();
  });
  beforeEach(async () => {
    await sql`drop table if exists counters`.execute(db);
    await db.schema
      .createTable('counters')
      .addColumn('name', 'text', (column) => column.primaryKey())
      .addColumn('value', 'integer', (column) => column.notNull())
      .execute();
    await db.insertInto('counters').values({ name: 'a', value: 0 }).execute();
  });

  it('reads back what it wrote, with the rows an update touched', async () => {
    const update = await db
      .updateTable('counters')
      .set({ value: 5 })
      .where('name', '=', 'a')
      .executeTakeFirst();
    expect(update.numUpdatedRows).toBe(1n);
    const insert = await db.insertInto('counters').values({ name: 'b', value: 1 }).executeTakeFirst();
    expect(insert.numInsertedOrUpdatedRows).toBe(1n);
    expect(await db.selectFrom('counters').selectAll().orderBy('name').execute()).toEqual([
      { name: 'a', value: 5 },
      { name: 'b', value: 1 },
    ]);
  });

  it('commits a transaction that succeeds and rolls back one that throws', async () => {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('counters').set({ value: 1 }).where('name', '=', 'a').execute();
    });
    const failure = new Error('stop');
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('counters').set({ value: 99 }).where('name', '=', 'a').execute();
        await trx.insertInto('counters').values({ name: 'c', value: 3 }).execute();
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await db.selectFrom('counters').selectAll().execute()).toEqual([{ name: 'a', value: 1 }]);
  });

  it('runs concurrent transactions one after the other, so none sees the other half done', async () => {
    const increment = () =>
      db.transaction().execute(async (trx) => {
        const { value } = await trx
          .selectFrom('counters')
          .select('value')
          .where('name', '=', 'a')
          .executeTakeFirstOrThrow();
        await new Promise((resolve) => setTimeout(resolve, 5));
        await trx
          .updateTable('counters')
          .set({ value: value + 1 })
          .where('name', '=', 'a')
          .execute();
      });
    await Promise.all([
      increment(),
      increment(),
      increment(),
      db.selectFrom('counters').selectAll().execute(),
    ]);
    expect(await db.selectFrom('counters').select('value').executeTakeFirstOrThrow()).toEqual({ value: 3 });
  });

  it('passes a transaction’s isolation level and access mode to PostgreSQL', async () => {
    const seen = await db
      .transaction()
      .setIsolationLevel('serializable')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const { rows } = await sql<{
          isolation: string;
          readOnly: string;
        }>`select current_setting('transaction_isolation') as isolation, current_setting('transaction_read_only') as "readOnly"`.execute(
          trx,
        );
        return rows[0];
      });
    expect(seen).toEqual({ isolation: 'serializable', readOnly: 'on' });
  });

  it('refuses to stream', async () => {
    await expect(db.selectFrom('counters').selectAll().stream().next()).rejects.toThrow(/not supported/);
  });
});
