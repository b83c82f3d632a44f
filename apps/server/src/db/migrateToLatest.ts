import { type Kysely, Migrator } from 'kysely';
import type { Database } from './database.js';
import { migrationProvider } from './migrations/index.js';

/**
 * Runs the migrations that have not run yet. Kysely takes a lock first (a table lock on PostgreSQL), so
 * several servers starting at once migrate once.
 *
 * @throws the migration's error, after the failed migration has been rolled back where the dialect can.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
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
