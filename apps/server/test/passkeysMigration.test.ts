import { type Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrateToLatest.js';
import { migrationProvider } from '../src/db/migrations/index.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectConstraintViolation } from './expectConstraintViolation.js';
import { PHONE } from './testApp.js';

const BEFORE_0015 = '0013_account_ownership';

describe.each(DIALECTS)('migration 0015 (passkeys) on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  // biome-ignore lint/suspicious/noExplicitAny: the tables as 0013 left them, not today's types
  const old = () => db() as unknown as Kysely<any>;

  async function at0013() {
    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    expect((await migrator.migrateTo(BEFORE_0015)).error).toBeUndefined();
    await old().insertInto('users').values({ id: 'u1', created_at: '2029-06-01T10:00:00.000Z' }).execute();
    await old()
      .insertInto('identities')
      .values({
        id: 'i1',
        value: PHONE,
        kind: 'phone',
        user_id: 'u1',
        findable: 0,
        trusted: 1,
        created_at: '2029-06-01T10:00:00.000Z',
      })
      .execute();
  }

  it('keeps every identity as it was, and the triggers that keep the user’s first phone and e-mail', async () => {
    await at0013();
    await migrateToLatest(db());
    expect(await db().selectFrom('identities').selectAll().execute()).toEqual([
      {
        id: 'i1',
        value: PHONE,
        kind: 'phone',
        user_id: 'u1',
        findable: 0,
        trusted: 1,
        created_at: '2029-06-01T10:00:00.000Z',
      },
    ]);
    // The display columns' triggers (0011, 0013) still run on the rebuilt table.
    await db()
      .insertInto('identities')
      .values({
        id: 'i2',
        value: 'ada@example.com',
        kind: 'email',
        user_id: 'u1',
        created_at: '2029-07-01T10:00:00.000Z',
      })
      .execute();
    const user = await old()
      .selectFrom('users')
      .select(['phone', 'email'])
      .where('id', '=', 'u1')
      .executeTakeFirst();
    expect(user).toEqual({ phone: PHONE, email: 'ada@example.com' });
    // The value is still unique across users.
    await db().insertInto('users').values({ id: 'u2', created_at: '2029-08-01T10:00:00.000Z' }).execute();
    await expectConstraintViolation(
      db()
        .insertInto('identities')
        .values({
          id: 'i3',
          value: PHONE,
          kind: 'phone',
          user_id: 'u2',
          created_at: '2029-08-01T10:00:00.000Z',
        })
        .execute(),
      'unique',
      'value',
    );
  });

  it("takes a 'passkey' identity, whose credential row goes with it, and still refuses a kind it does not know", async () => {
    await at0013();
    await migrateToLatest(db());
    await db()
      .insertInto('identities')
      .values({
        id: 'p1',
        value: 'AbC-_d',
        kind: 'passkey',
        user_id: 'u1',
        created_at: '2030-01-01T00:00:00.000Z',
      })
      .execute();
    await db()
      .insertInto('passkeys')
      .values({
        identity_id: 'p1',
        user_id: 'u1',
        credential_id: 'AbC-_d',
        public_key: 'pk',
        counter: 0,
        transports: '[]',
        user_handle: 'h',
        aaguid: '00000000-0000-0000-0000-000000000000',
        name: 'Laptop',
        backed_up: 0,
        created_at: '2030-01-01T00:00:00.000Z',
        last_used_at: null,
      })
      .execute();
    await db().deleteFrom('identities').where('id', '=', 'p1').execute();
    expect(await db().selectFrom('passkeys').select('identity_id').execute()).toEqual([]);
    await expectConstraintViolation(
      old()
        .insertInto('identities')
        .values({ id: 'x1', value: 'x', kind: 'fax', user_id: 'u1', created_at: '2030-01-01T00:00:00.000Z' })
        .execute(),
      'check',
      'kind',
    );
  });
});
