import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrateToLatest.js';
import { MIGRATIONS, migrationProvider } from '../src/db/migrations/index.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectConstraintViolation } from './expectConstraintViolation.js';
import { insertLegacySession } from './legacySession.js';

const NOW = new Date('2030-01-01T12:00:00.000Z');

describe.each(DIALECTS)('migration 0002 (recovery and rotation) on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('migrates down to 0001 and up again, giving earlier wallets generation 1 and sessions no re-authentication', async () => {
    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    const down = await migrator.migrateTo('0001_initial');
    expect(down.error).toBeUndefined();
    // Every later migration goes down first, newest first, down to 0002.
    const later = Object.keys(MIGRATIONS)
      .filter((name) => name > '0001_initial')
      .sort()
      .reverse();
    expect(down.results?.map((result) => [result.migrationName, result.direction, result.status])).toEqual(
      later.map((name) => [name, 'Down', 'Success']),
    );
    expect(later.at(-1)).toBe('0002_recovery_and_rotation');
    const tablesBefore = (await db().introspection.getTables()).map((table) => table.name);
    expect(tablesBefore).not.toContain('recovery_shares');

    const created_at = NOW.toISOString();
    await db().insertInto('users').values({ id: 'u1', created_at }).execute();
    await db()
      .insertInto('wallets')
      .values({
        user_id: 'u1',
        address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
        auth_share_ciphertext: 'AAAA',
        iv: 'AAAAAAAAAAAAAAAA',
        key_version: 1,
        created_at,
      })
      .execute();
    await insertLegacySession(db(), 'u1', NOW);

    await migrateToLatest(db());
    expect(await db().selectFrom('wallets').select(['user_id', 'share_generation']).execute()).toEqual([
      { user_id: 'u1', share_generation: 1 },
    ]);
    expect(await db().selectFrom('sessions').select('reauthenticated_at').execute()).toEqual([
      { reauthenticated_at: null },
    ]);
    expect(await db().selectFrom('recovery_shares').selectAll().execute()).toEqual([]);
  });

  it('refuses a recovery method other than password or passkey, and deletes the share with its user', async () => {
    const created_at = NOW.toISOString();
    await db().insertInto('users').values({ id: 'u1', created_at }).execute();
    const row = { user_id: 'u1', generation: 1, ciphertext: 'AAAA', kdf: '{}', created_at };
    await expectConstraintViolation(
      db()
        .insertInto('recovery_shares')
        .values({ ...row, method: 'sms' as 'password' })
        .execute(),
      'check',
      'method',
    );
    await db()
      .insertInto('recovery_shares')
      .values({ ...row, method: 'passkey' })
      .execute();
    await db().deleteFrom('users').where('id', '=', 'u1').execute();
    expect(await db().selectFrom('recovery_shares').selectAll().execute()).toEqual([]);
  });
});
