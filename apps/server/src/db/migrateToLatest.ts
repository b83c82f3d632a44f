import { type Kysely, Migrator, sql } from 'kysely';
import type { Database } from './database.js';
import { dialectOf } from './dialectOf.js';
import { migrationProvider } from './migrations/index.js';

/**
 * Runs the migrations that have not run yet. Kysely takes a lock first (a table lock on PostgreSQL), so
 * several servers starting at once migrate once. On PostgreSQL the migration tables are those of the
 * connection's own schema (the first of its `search_path`): Kysely otherwise finds another schema's
 * `kysely_migration_lock` in the same database, takes it for its own, and fails.
 *
 * @throws the migration's error, after the failed migration has been rolled back where the dialect can.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    migrationTableSchema: await currentSchema(db),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error !== undefined) {
    const name = failed === undefined ? '' : ` (${failed.migrationName})`;
    throw new Error(`The database migration failed${name}: ${describe(error)}`, { cause: error });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The schema unqualified names resolve to on PostgreSQL; undefined on SQLite, which has none. */
async function currentSchema(db: Kysely<Database>): Promise<string | undefined> {
  if (dialectOf(db) === 'sqlite') return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? undefined;
}
