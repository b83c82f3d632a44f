import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../src/db/createDatabase.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrateToLatest.js';
import { PGliteDialect } from './pgliteDialect.js';

// A database whose `public` schema Dial already migrated (a bench run, another deployment) must not stop a
// server working in a schema of its own: Kysely used to take public's migration lock table for its own.
const serverUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

async function tablesOf(db: Kysely<Database>, schema: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables where table_schema = ${schema} order by 1
  `.execute(db);
  return rows.map((row) => row.name);
}

describe('migrateToLatest in a schema of its own', () => {
  it('PGlite: migrates the second schema although the first holds Dial’s tables', async () => {
    const pglite = new PGlite();
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
    try {
      await migrateToLatest(db);
      expect(await tablesOf(db, 'public')).toContain('kysely_migration_lock');
      await sql`create schema own`.execute(db);
      await sql`set search_path to own`.execute(db);
      await migrateToLatest(db);
      const own = await tablesOf(db, 'own');
      expect(own).toEqual(expect.arrayContaining(['kysely_migration', 'kysely_migration_lock', 'users']));
      // Migrating again is a no-op, in either schema.
      await migrateToLatest(db);
      await sql`set search_path to public`.execute(db);
      await migrateToLatest(db);
    } finally {
      await db.destroy();
    }
  });

  it.runIf(serverUrl !== undefined)(
    'PostgreSQL: two schemas of one database, each migrated on its own',
    async () => {
      const admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
      const schemas = [0, 1].map(() => `test_${randomUUID().replaceAll('-', '')}`);
      try {
        for (const schema of schemas) {
          await admin.query(`create schema ${schema}`);
          const db = createPostgresDatabase(
            new pg.Pool({ connectionString: serverUrl, max: 2, options: `-c search_path=${schema}` }),
          );
          try {
            await migrateToLatest(db);
            expect(await tablesOf(db, schema)).toEqual(
              expect.arrayContaining(['kysely_migration', 'kysely_migration_lock', 'users']),
            );
          } finally {
            await db.destroy();
          }
        }
      } finally {
        for (const schema of schemas) await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    },
  );
});
