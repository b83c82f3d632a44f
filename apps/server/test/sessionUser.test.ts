import { randomUUID } from 'node:crypto';
import { type Kysely, Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { accountWallet } from '../src/auth/accountWallet.js';
import { createSession, findSessionUser } from '../src/auth/sessions.js';
import { findUser, type User } from '../src/auth/users.js';
import type { Database, IdentityKind } from '../src/db/database.js';
import { migrationProvider } from '../src/db/migrations/index.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { gate } from './gate.js';
import { createTestApp, type TestApp } from './testApp.js';

// GET /api/me reads the session, the user, their first phone number and e-mail address and the account's
// wallet in one prepared query (findSessionUser). These check its answers against the rule as it was written
// before, one query per part (`usersBefore` below), for every shape of account, and that nothing of a
// session is kept between requests.

const CREATED = '2030-01-01T12:00:00.000Z';
const LATER = '2030-01-02T12:00:00.000Z';
const EMBEDDED = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const WALLET_A = '0x1111111111111111111111111111111111111111';
const WALLET_B = '0x2222222222222222222222222222222222222222';
const WALLET_C = '0x3333333333333333333333333333333333333333';
const OTHER_WALLET = '0x9999999999999999999999999999999999999999';
const serverUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

type Identity = { kind: IdentityKind; value: string; at?: string };

/** An account as sign-up and linking leave it: its identities (each at its time) and maybe an embedded wallet. */
async function account(
  db: Kysely<Database>,
  identities: Identity[],
  embedded?: string,
): Promise<{ userId: string }> {
  const userId = randomUUID();
  await db.insertInto('users').values({ id: userId, created_at: CREATED }).execute();
  for (const identity of identities) {
    await db
      .insertInto('identities')
      .values({
        id: randomUUID(),
        value: identity.value,
        kind: identity.kind,
        user_id: userId,
        created_at: identity.at ?? CREATED,
      })
      .execute();
  }
  if (embedded !== undefined) await addEmbeddedWallet(db, userId, embedded, CREATED);
  return { userId };
}

/** An embedded wallet's row, as registering one leaves it. */
async function addEmbeddedWallet(db: Kysely<Database>, userId: string, address: string, at: string) {
  await db
    .insertInto('wallets')
    .values({
      user_id: userId,
      address,
      auth_share_ciphertext: 'AAAA',
      iv: 'AAAAAAAAAAAAAAAA',
      key_version: 1,
      created_at: at,
    })
    .execute();
}

/** The user as findUser and accountWallet read it before they were one query: the oracle. */
async function userBefore(db: Kysely<Database>, userId: string): Promise<User> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const identities = await db
    .selectFrom('identities')
    .select(['kind', 'value'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('value')
    .execute();
  const embedded = await db
    .selectFrom('wallets')
    .select('address')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const linked = identities.find((identity) => identity.kind === 'wallet');
  return {
    id: user.id,
    phone: identities.find((identity) => identity.kind === 'phone')?.value ?? null,
    email: identities.find((identity) => identity.kind === 'email')?.value ?? null,
    wallet:
      embedded !== undefined
        ? { address: embedded.address as `0x${string}`, kind: 'embedded' }
        : linked === undefined
          ? null
          : { address: linked.value as `0x${string}`, kind: 'external' },
    createdAt: user.created_at,
  };
}

async function me(t: TestApp, db: Kysely<Database>, userId: string): Promise<User> {
  const { token } = await createSession(db, userId, t.config.session, t.clock.now());
  const response = await t.get('/api/me', { token });
  expect(response.statusCode).toBe(200);
  return response.json().user;
}

describe.each(DIALECTS)('GET /api/me in one query on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  const accounts: Array<[string, Identity[], string | undefined, Partial<User>]> = [
    [
      'a phone number only',
      [{ kind: 'phone', value: '+447400123456' }],
      undefined,
      { email: null, wallet: null },
    ],
    ['an e-mail address only', [{ kind: 'email', value: 'ada@example.com' }], undefined, { phone: null }],
    [
      'a wallet only (signed in with it)',
      [{ kind: 'wallet', value: WALLET_A }],
      undefined,
      { phone: null, email: null, wallet: { address: WALLET_A, kind: 'external' } },
    ],
    [
      'a phone number, an e-mail address and an embedded wallet',
      [
        { kind: 'phone', value: '+447400123456' },
        { kind: 'email', value: 'ada@example.com' },
      ],
      EMBEDDED,
      { phone: '+447400123456', email: 'ada@example.com', wallet: { address: EMBEDDED, kind: 'embedded' } },
    ],
    [
      'an embedded wallet and linked ones (the embedded one is the account’s)',
      [
        { kind: 'wallet', value: WALLET_A },
        { kind: 'phone', value: '+447400123456' },
      ],
      EMBEDDED,
      { wallet: { address: EMBEDDED, kind: 'embedded' } },
    ],
    [
      'linked wallets only (the first linked is the account’s, then the lower address)',
      [
        { kind: 'wallet', value: WALLET_C, at: LATER },
        { kind: 'wallet', value: WALLET_B },
        { kind: 'wallet', value: WALLET_A, at: LATER },
      ],
      undefined,
      { wallet: { address: WALLET_B, kind: 'external' } },
    ],
    [
      'several phone numbers and e-mail addresses (the first linked, then the lower value)',
      [
        { kind: 'phone', value: '+447400000002', at: LATER },
        { kind: 'phone', value: '+447400000009' },
        { kind: 'phone', value: '+447400000001', at: LATER },
        { kind: 'email', value: 'b@example.com' },
        { kind: 'email', value: 'a@example.com' },
      ],
      undefined,
      { phone: '+447400000009', email: 'a@example.com', wallet: null },
    ],
    ['no sign-in method left', [], undefined, { phone: null, email: null, wallet: null }],
  ];

  it.each(accounts)('answers as before for %s', async (_label, identities, embedded, expected) => {
    const t = await createTestApp(db());
    // Another account beside it, so that nothing of one leaks into the other.
    await account(db(), [
      { kind: 'phone', value: '+447400999999' },
      { kind: 'wallet', value: OTHER_WALLET },
    ]);
    const { userId } = await account(db(), identities, embedded);
    const before = await userBefore(db(), userId);
    const user = await me(t, db(), userId);
    expect(user).toEqual(before);
    expect(user).toMatchObject({ id: userId, createdAt: CREATED, ...expected });
    // findUser and accountWallet give the same answers: the one definition of each.
    expect(await findUser(db(), userId)).toEqual(before);
    expect(await accountWallet(db(), userId)).toEqual(before.wallet);
  });

  it('refuses a session ended on another server sharing the database at once, and serves a new one', async () => {
    const serverA = await createTestApp(db());
    const serverB = await createTestApp(db());
    const { token } = await serverA.signIn('email', 'ada@example.com');
    expect((await serverB.get('/api/me', { token })).statusCode).toBe(200);
    expect((await serverA.post('/api/auth/logout', {}, { token })).statusCode).toBe(200);
    const refused = await serverB.get('/api/me', { token });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('unauthorized');
    const again = await serverB.signIn('email', 'ada@example.com');
    expect((await serverA.get('/api/me', { token: again.token })).json().user.email).toBe('ada@example.com');
  });

  it('shows a change made on another server at the next request: a linked wallet, then an embedded one', async () => {
    const serverA = await createTestApp(db());
    const { userId } = await account(db(), [{ kind: 'phone', value: '+447400123456' }]);
    const { token } = await createSession(db(), userId, serverA.config.session, serverA.clock.now());
    expect((await serverA.get('/api/me', { token })).json().user.wallet).toBeNull();
    await db()
      .insertInto('identities')
      .values({ id: randomUUID(), value: WALLET_A, kind: 'wallet', user_id: userId, created_at: LATER })
      .execute();
    expect((await serverA.get('/api/me', { token })).json().user.wallet).toEqual({
      address: WALLET_A,
      kind: 'external',
    });
    await addEmbeddedWallet(db(), userId, EMBEDDED, LATER);
    expect((await serverA.get('/api/me', { token })).json().user.wallet).toEqual({
      address: EMBEDDED,
      kind: 'embedded',
    });
  });
  it('answers many requests at once, each with its own user, and refuses the ended sessions among them', async () => {
    const t = await createTestApp(db());
    // More than the largest batch of session look-ups on PostgreSQL (64), so they take several queries.
    const users = [];
    for (let i = 0; i < 70; i++) {
      const phone = `+4474000${String(i).padStart(5, '0')}`;
      const { userId } = await account(db(), [{ kind: 'phone', value: phone }]);
      const { token } = await createSession(db(), userId, t.config.session, t.clock.now());
      users.push({ userId, phone, token });
    }
    // One signed out (its row deleted, as on any server), one past its idle end (its row is deleted when read).
    const signedOut = users[3]!;
    const idle = users[40]!;
    await db().deleteFrom('sessions').where('user_id', '=', signedOut.userId).execute();
    await db()
      .updateTable('sessions')
      .set({ last_seen_at: '2029-12-01T00:00:00.000Z' })
      .where('user_id', '=', idle.userId)
      .execute();
    // Each session asked twice in the same moment, in another order the second time.
    const asked = [...users, ...[...users].reverse()];
    const answers = await Promise.all(asked.map(({ token }) => t.get('/api/me', { token })));
    asked.forEach((user, index) => {
      const answer = answers[index]!;
      if (user === signedOut || user === idle) {
        expect(answer.statusCode).toBe(401);
        expect(answer.json().error.code).toBe('unauthorized');
      } else {
        expect(answer.statusCode).toBe(200);
        expect(answer.json().user).toMatchObject({ id: user.userId, phone: user.phone });
      }
    });
    const idleRows = await db()
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', idle.userId)
      .execute();
    expect(idleRows).toEqual([]);
  });

  it('reads the sessions looked up in the same moment together, each as the database has it then', async () => {
    const t = await createTestApp(db());
    const { session } = t.config;
    const sessions = [];
    for (let i = 0; i < 5; i++) {
      const { userId } = await account(db(), [{ kind: 'email', value: `user${i}@example.com` }]);
      sessions.push({ userId, ...(await createSession(db(), userId, session, t.clock.now())) });
    }
    const lookUp = (tokens: string[]) =>
      Promise.all(tokens.map((token) => findSessionUser(db(), token, session, t.clock.now())));
    const tokens = sessions.map(({ token }) => token);
    // A malformed token and an unknown one beside them.
    const first = await lookUp([...tokens, 'not-a-token', 'A'.repeat(43)]);
    expect(first.map((user) => user?.id)).toEqual([
      ...sessions.map(({ userId }) => userId),
      undefined,
      undefined,
    ]);
    // Ended between two moments: the next look-up, in a batch with the others, refuses it at once.
    await db().deleteFrom('sessions').where('id', '=', sessions[2]!.id).execute();
    const second = await lookUp(tokens);
    expect(second.map((user) => user?.email)).toEqual([
      'user0@example.com',
      'user1@example.com',
      undefined,
      'user3@example.com',
      'user4@example.com',
    ]);
  });
});

// What GET /api/me shows of a user is kept on the user's row by the database's triggers (migration 0011). These
// make every kind of write to identities and wallets and check the answer against the rule as first written
// (userBefore): a trigger that missed one would leave the row showing what was there before.
describe.each(DIALECTS)('the user’s row follows every write to identities and wallets on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('when methods are linked, unlinked, changed and moved, and the embedded wallet comes, changes and goes', async () => {
    const t = await createTestApp(db());
    const other = await account(db(), [{ kind: 'phone', value: '+447400999999', at: LATER }]);
    const { userId } = await account(db(), [
      { kind: 'phone', value: '+447400000002', at: LATER },
      { kind: 'phone', value: '+447400000009' },
      { kind: 'email', value: 'b@example.com' },
      { kind: 'wallet', value: WALLET_B, at: LATER },
    ]);
    // Each step changes what shows of one of the two accounts (so no check passes by showing what was there
    // before), but for the one that must change nothing.
    let shown = '';
    const check = async (changes = true) => {
      const both = [];
      for (const id of [userId, other.userId]) {
        const before = await userBefore(db(), id);
        expect(await me(t, db(), id)).toEqual(before);
        expect(await findUser(db(), id)).toEqual(before);
        expect(await accountWallet(db(), id)).toEqual(before.wallet);
        both.push(before);
      }
      expect(JSON.stringify(both) !== shown).toBe(changes);
      shown = JSON.stringify(both);
    };
    const identity = (value: string) => db().updateTable('identities').where('value', '=', value);
    await check();
    // Unlinked: the next phone number shows.
    await db().deleteFrom('identities').where('value', '=', '+447400000009').execute();
    await check();
    // A later e-mail address does not take the first one's place; once the first is later still, it does.
    await db()
      .insertInto('identities')
      .values({ id: randomUUID(), value: 'a@example.com', kind: 'email', user_id: userId, created_at: LATER })
      .execute();
    await check(false);
    await identity('b@example.com').set({ created_at: '2030-01-03T12:00:00.000Z' }).execute();
    await check();
    // A value changed in place, a kind changed, a method moved to the other account.
    await identity('a@example.com').set({ value: 'c@example.com' }).execute();
    await check();
    await identity(WALLET_B).set({ kind: 'phone', value: '+447400000001' }).execute();
    await check();
    await identity('+447400000002').set({ user_id: other.userId, created_at: CREATED }).execute();
    await check();
    // The embedded wallet arrives, changes address, and goes: the first linked wallet shows again.
    await db()
      .insertInto('identities')
      .values({ id: randomUUID(), value: WALLET_C, kind: 'wallet', user_id: userId, created_at: LATER })
      .execute();
    await addEmbeddedWallet(db(), userId, EMBEDDED, LATER);
    await check();
    await db().updateTable('wallets').set({ address: WALLET_A }).where('user_id', '=', userId).execute();
    await check();
    await db().updateTable('wallets').set({ user_id: other.userId }).where('user_id', '=', userId).execute();
    await check();
    await db().deleteFrom('wallets').where('user_id', '=', other.userId).execute();
    await check();
    // An account deleted with its methods and wallet: the triggers on the cascade find no row to keep.
    await db().deleteFrom('users').where('id', '=', userId).execute();
    expect(await db().selectFrom('identities').where('user_id', '=', userId).selectAll().execute()).toEqual(
      [],
    );
    expect(await findUser(db(), other.userId)).toEqual(await userBefore(db(), other.userId));
  });

  it('fills the columns of the users a database already had when it migrates', async () => {
    const migrator = new Migrator({ db: db(), provider: migrationProvider });
    // The tables as 0010 left them (0011's down: its columns and triggers gone).
    expect((await migrator.migrateTo('0010_identities_by_kind')).error).toBeUndefined();
    const accounts = [
      await account(db(), [
        { kind: 'phone', value: '+447400000002', at: LATER },
        { kind: 'phone', value: '+447400000009' },
        { kind: 'email', value: 'b@example.com' },
      ]),
      await account(db(), [{ kind: 'wallet', value: WALLET_B }], EMBEDDED),
      await account(db(), [
        { kind: 'wallet', value: WALLET_C, at: LATER },
        { kind: 'wallet', value: WALLET_A },
      ]),
      await account(db(), []),
    ];
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    for (const { userId } of accounts) {
      expect(await findUser(db(), userId)).toEqual(await userBefore(db(), userId));
    }
    expect((await findUser(db(), accounts[1]!.userId))?.wallet).toEqual({
      address: EMBEDDED,
      kind: 'embedded',
    });
    // And back down: the columns and triggers go, the rows stay.
    expect((await migrator.migrateTo('0010_identities_by_kind')).error).toBeUndefined();
    expect(await db().selectFrom('identities').select('value').execute()).toHaveLength(6);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await findUser(db(), accounts[0]!.userId)).toEqual(await userBefore(db(), accounts[0]!.userId));
  });
});

// On a PostgreSQL server, two transactions can link methods to one user at once (SQLite and PGlite run one
// write at a time): the second's trigger must wait for the first, then count its method.
describe.runIf(serverUrl !== undefined)(
  'the user’s row under concurrent links on PostgreSQL (needs TEST_DATABASE_URL)',
  () => {
    const db = useTestDatabase('postgres');

    it('keeps the first method when two transactions link methods to one user at once', async () => {
      const { userId } = await account(db(), []);
      const phone = (value: string, at: string) => ({
        id: randomUUID(),
        value,
        kind: 'phone' as const,
        user_id: userId,
        created_at: at,
      });
      const firstMayCommit = gate();
      const firstLinked = gate();
      // The first links the earlier number and holds its transaction open.
      const first = db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('identities').values(phone('+447400000001', CREATED)).execute();
          firstLinked.open();
          await firstMayCommit.opened;
        });
      await firstLinked.opened;
      // The second links a later number meanwhile: its trigger must wait for the first, then see its number.
      let secondPid: number | undefined;
      const second = db()
        .transaction()
        .execute(async (trx) => {
          secondPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
          await trx.insertInto('identities').values(phone('+447400000002', LATER)).execute();
        });
      for (;;) {
        const { rows } = await sql<{ waiting: boolean }>`
          select exists (select 1 from pg_stat_activity where pid = ${secondPid ?? -1} and wait_event_type = 'Lock')
            as waiting`.execute(db());
        if (rows[0]!.waiting) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      firstMayCommit.open();
      await Promise.all([first, second]);
      expect(await findUser(db(), userId)).toEqual(await userBefore(db(), userId));
      expect((await findUser(db(), userId))?.phone).toBe('+447400000001');
    });
  },
);
