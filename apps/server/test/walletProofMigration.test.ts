import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrateToLatest.js';
import { migrationProvider } from '../src/db/migrations/index.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectConstraintViolation } from './expectConstraintViolation.js';

const ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

describe.each(DIALECTS)('migration 0005 (wallet proofs) on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it("keeps the first registration of an address and moves a squatter's later one aside, then makes addresses unique", async () => {
    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    expect((await migrator.migrateTo('0004_onramp')).error).toBeUndefined();

    const wallet = (userId: string, address: string, createdAt: string) => ({
      user_id: userId,
      address,
      auth_share_ciphertext: `ciphertext-${userId}`,
      iv: 'AAAAAAAAAAAAAAAA',
      key_version: 1,
      created_at: createdAt,
    });
    for (const id of ['owner', 'squatter', 'other']) {
      await db().insertInto('users').values({ id, created_at: '2030-01-01T00:00:00.000Z' }).execute();
    }
    await db()
      .insertInto('wallets')
      .values([
        wallet('squatter', ADDRESS, '2030-01-02T00:00:00.000Z'),
        wallet('owner', ADDRESS, '2030-01-01T00:00:00.000Z'),
        wallet('other', '0x0000000000000000000000000000000000000001', '2030-01-03T00:00:00.000Z'),
      ])
      .execute();

    await migrateToLatest(db());
    const kept = await db().selectFrom('wallets').select(['user_id', 'address']).orderBy('user_id').execute();
    expect(kept).toEqual([
      { user_id: 'other', address: '0x0000000000000000000000000000000000000001' },
      { user_id: 'owner', address: ADDRESS },
    ]);
    const disputed = await db()
      .selectFrom('disputed_wallets' as 'wallets')
      .select(['user_id', 'address', 'auth_share_ciphertext'])
      .execute();
    expect(disputed).toEqual([
      { user_id: 'squatter', address: ADDRESS, auth_share_ciphertext: 'ciphertext-squatter' },
    ]);
    await expectConstraintViolation(
      db()
        .insertInto('wallets')
        .values(wallet('squatter', ADDRESS, '2030-01-04T00:00:00.000Z'))
        .execute(),
      'unique',
      'address',
    );
  });
});
