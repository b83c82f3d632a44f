import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createSession, findSessionUser } from '../src/auth/sessions.js';
import { findUser, type User } from '../src/auth/users.js';
import type { Database, IdentityKind } from '../src/db/database.js';
import { accountWallet } from '../src/wallet/accountWallet.js';
import { DIALECTS, useTestDatabase } from './databases.js';
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
  if (embedded !== undefined) {
    await db
      .insertInto('wallets')
      .values({
        user_id: userId,
        address: embedded,
        auth_share_ciphertext: 'AAAA',
        iv: 'AAAAAAAAAAAAAAAA',
        key_version: 1,
        created_at: CREATED,
      })
      .execute();
  }
  return { userId };
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
    await db()
      .insertInto('wallets')
      .values({
        user_id: userId,
        address: EMBEDDED,
        auth_share_ciphertext: 'AAAA',
        iv: 'AAAAAAAAAAAAAAAA',
        key_version: 1,
        created_at: LATER,
      })
      .execute();
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
