import { randomUUID } from 'node:crypto';
import { DialError } from '@dial/core';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Allowlist } from '../config/index.js';
import type { Database, IdentityKind } from '../db/database.js';
import { dialectOf } from '../db/dialectOf.js';
import { isUniqueViolation } from '../db/isUniqueViolation.js';
import { preparedQuery } from '../db/preparedQuery.js';
import {
  type AccountWallet,
  type AccountWalletColumns,
  accountWalletColumns,
  readAccountWallet,
} from './accountWallet.js';

/** A user as the API shows it. */
export interface User {
  id: string;
  /** The first phone number linked (E.164), or `null` when there is none. */
  phone: string | null;
  /** The first e-mail address linked (lower-case), or `null` when there is none. */
  email: string | null;
  /** The account's wallet (`accountWallet`); `null` when it has neither an embedded nor a linked one. */
  wallet: AccountWallet | null;
  /** ISO 8601. */
  createdAt: string;
}

/** Who may create an account: the allowlist and the user cap (`null` for none). */
export interface SignUpPolicy {
  allowlist: Allowlist | null;
  maxUsers: number | null;
}

/**
 * An arbitrary constant naming the PostgreSQL advisory lock that serialises sign-ups (the ASCII of "Dial").
 */
const SIGN_UP_LOCK = 0x4469616c;

/** A user's columns in a query ({@link userColumns}), as {@link readUser} reads them. */
export interface UserColumns extends AccountWalletColumns {
  user_id: string;
  user_created_at: string;
  phone: string | null;
  email: string | null;
}

/**
 * The columns of {@link User} ({@link UserColumns}) for a query that has the user's row as `users`: all on the
 * row itself (its first phone number and e-mail address and the account's wallet are kept there by the
 * database, migration 0011), so a user is one primary-key look-up, alone ({@link findUser}) or with a session
 * (`findSessionUser`).
 */
export function userColumns() {
  return [
    'users.id as user_id',
    'users.created_at as user_created_at',
    'users.phone',
    'users.email',
    ...accountWalletColumns,
  ] as const;
}

/** The {@link User} of a row holding its {@link userColumns}. */
export function readUser(row: UserColumns): User {
  return {
    id: row.user_id,
    phone: row.phone,
    email: row.email,
    wallet: readAccountWallet(row),
    createdAt: row.user_created_at,
  };
}

const selectUser = preparedQuery((db, userId: string) =>
  db.selectFrom('users').select(userColumns()).where('users.id', '=', userId),
);

/** Loads a user with their identities, in one query; `undefined` when there is no such user. */
export async function findUser(db: Kysely<Database>, userId: string): Promise<User | undefined> {
  const [row] = await selectUser(db, userId);
  return row === undefined ? undefined : readUser(row);
}

async function findUserIdByIdentity(db: Kysely<Database>, value: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('identities')
    .select('user_id')
    .where('value', '=', value)
    .executeTakeFirst();
  return row?.user_id;
}

/**
 * The user who owns a phone number or e-mail address, created when there is none, for a sign-in whose code
 * was already proven right. Only a new account is checked against the allowlist and the user cap: people
 * who already have an account always sign in.
 *
 * The cap holds under concurrency: the count and the insert run in one transaction that, on PostgreSQL,
 * first takes a transaction-scoped advisory lock, so sign-ups on every server sharing the database run one
 * at a time (sign-ins of existing users take no lock). On SQLite, one process's transactions already run
 * one at a time on its single connection.
 *
 * `onCreated`, when given, runs in the transaction that creates a new account, after its first identity is
 * inserted (a passkey's credential row goes in with it), and not at all for an existing account.
 *
 * @throws {DialError} `allowlist_rejected`, `max_accounts_reached`.
 */
export async function findOrCreateUser(
  db: Kysely<Database>,
  identity: { kind: IdentityKind; value: string },
  policy: SignUpPolicy,
  now: Date,
  onCreated?: (trx: Transaction<Database>, made: { userId: string; identityId: string }) => Promise<void>,
): Promise<{ user: User; isNewUser: boolean }> {
  const existing = await findUserIdByIdentity(db, identity.value);
  if (existing !== undefined) return { user: await loadUser(db, existing), isNewUser: false };

  if (policy.allowlist !== null) {
    // A passkey alone is on no list (its credential id is made at sign-up): with an allowlist, people on it
    // sign up with their number, address or wallet, and add a passkey after.
    const allowed =
      identity.kind === 'email'
        ? policy.allowlist.emails
        : identity.kind === 'phone'
          ? policy.allowlist.phones
          : identity.kind === 'wallet'
            ? policy.allowlist.wallets
            : [];
    if (!allowed.includes(identity.value)) throw new DialError('allowlist_rejected');
  }

  try {
    const created = await db.transaction().execute(async (trx) => {
      if (dialectOf(db) === 'postgres') await sql`select pg_advisory_xact_lock(${SIGN_UP_LOCK})`.execute(trx);
      // Under the lock, a sign-up that raced this one is visible: sign in to its account instead.
      const raced = await findUserIdByIdentity(trx, identity.value);
      if (raced !== undefined) return { id: raced, isNew: false };
      if (policy.maxUsers !== null) await checkUserCap(trx, policy.maxUsers);
      const id = randomUUID();
      const createdAt = now.toISOString();
      await trx.insertInto('users').values({ id, created_at: createdAt }).execute();
      const identityId = randomUUID();
      await trx
        .insertInto('identities')
        .values({
          id: identityId,
          value: identity.value,
          kind: identity.kind,
          user_id: id,
          created_at: createdAt,
        })
        .execute();
      if (onCreated !== undefined) await onCreated(trx, { userId: id, identityId });
      return { id, isNew: true };
    });
    return { user: await loadUser(db, created.id), isNewUser: created.isNew };
  } catch (error) {
    // Another process created this identity between our check and our insert (SQLite without the lock).
    if (!isUniqueViolation(error)) throw error;
    const raced = await findUserIdByIdentity(db, identity.value);
    if (raced === undefined) throw error;
    return { user: await loadUser(db, raced), isNewUser: false };
  }
}

async function checkUserCap(trx: Transaction<Database>, maxUsers: number): Promise<void> {
  const { count } = await trx
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirstOrThrow();
  if (Number(count) >= maxUsers) throw new DialError('max_accounts_reached');
}

async function loadUser(db: Kysely<Database>, userId: string): Promise<User> {
  const user = await findUser(db, userId);
  if (user === undefined) throw new Error(`user ${userId} vanished`);
  return user;
}

/**
 * The user whose embedded wallet is `address` (checksummed, as stored); `undefined` when it is no account's
 * embedded wallet.
 */
export async function findEmbeddedWalletOwner(
  db: Kysely<Database>,
  address: string,
): Promise<User | undefined> {
  const row = await db
    .selectFrom('wallets')
    .select('user_id')
    .where('address', '=', address)
    .executeTakeFirst();
  return row === undefined ? undefined : findUser(db, row.user_id);
}
