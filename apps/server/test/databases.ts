import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createPostgresDatabase, createSqliteDatabase } from '../src/db/createDatabase.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrateToLatest.js';
import { PGliteDialect } from './pgliteDialect.js';

/** The SQL dialects the storage and route suites run against. */
export type TestDialect = 'sqlite' | 'postgres';

/**
 * Every dialect Dial supports: run suites with `describe.each(DIALECTS)`. `postgres` is the server at
 * `TEST_DATABASE_URL` when it is set (a fresh schema per test), else PGlite in process (one instance per
 * test file, its schema dropped and recreated before each test).
 */
export const DIALECTS: readonly TestDialect[] = ['sqlite', 'postgres'];

const serverUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

/** Names the dialect in test titles: `sqlite`, `postgres (server)` or `postgres (PGlite)`. */
export function dialectLabel(dialect: TestDialect): string {
  if (dialect === 'sqlite') return 'sqlite';
  return serverUrl === undefined ? 'postgres (PGlite)' : 'postgres (server)';
}

/**
 * Gives every test of the enclosing `describe` a fresh, migrated database of `dialect`, and cleans it up
 * afterwards. Call it at the top of a `describe`; read the database with the returned getter inside tests.
 */
export function useTestDatabase(dialect: TestDialect): () => Kysely<Database> {
  let db: Kysely<Database> | undefined;
  let cleanup: (() => Promise<void>) | undefined;

  if (dialect === 'postgres' && serverUrl === undefined) {
    beforeAll(async () => {
      await acquirePglite();
    });
    afterAll(async () => {
      await releasePglite();
    });
  }
  if (dialect === 'postgres' && serverUrl !== undefined) {
    let admin: pg.Pool | undefined;
    beforeAll(() => {
      admin = new pg.Pool({ connectionString: serverUrl, max: 2 });
    });
    afterAll(async () => {
      await admin?.end();
    });
    beforeEach(async () => {
      const schema = `test_${randomUUID().replaceAll('-', '')}`;
      await admin!.query(`create schema ${schema}`);
      // Every connection of the pool works in the test's own schema, so tests never see each other.
      const pool = new pg.Pool({ connectionString: serverUrl, max: 5, options: `-c search_path=${schema}` });
      db = createPostgresDatabase(pool);
      cleanup = async () => {
        await db?.destroy();
        await admin!.query(`drop schema ${schema} cascade`);
      };
    });
  } else if (dialect === 'postgres') {
    beforeEach(async () => {
      const pglite = await currentPglite();
      await pglite.exec('drop schema if exists public cascade; create schema public;');
      // Not destroyed after the test: destroy() would close the shared PGlite.
      db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
      cleanup = undefined;
    });
  } else {
    beforeEach(() => {
      db = createSqliteDatabase(':memory:');
      cleanup = async () => {
        await db?.destroy();
      };
    });
  }

  beforeEach(async () => {
    await migrateToLatest(db!);
  });
  afterEach(async () => {
    await cleanup?.();
    db = undefined;
  });

  return () => {
    if (db === undefined) throw new Error('the test database exists only inside a test');
    return db;
  };
}

let pglite: Promise<PGlite> | undefined;
let pgliteUsers = 0;

/** One PGlite per test file (creating one takes seconds), shared by the file's describe blocks. */
async function acquirePglite(): Promise<void> {
  pgliteUsers += 1;
  pglite ??= PGlite.create();
  await pglite;
}

async function currentPglite(): Promise<PGlite> {
  if (pglite === undefined) throw new Error('PGlite is not started');
  return pglite;
}

async function releasePglite(): Promise<void> {
  pgliteUsers -= 1;
  if (pgliteUsers > 0 || pglite === undefined) return;
  const instance = await pglite;
  pglite = undefined;
  await instance.close();
}
