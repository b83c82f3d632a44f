import { randomUUID } from 'node:crypto';
import { DialError } from '@dial/core';
import { type Kysely, sql } from 'kysely';
import type { Database, IdentityKind } from '../db/database.js';
import { dialectOf } from '../db/dialectOf.js';
import { isUniqueViolation } from '../db/isUniqueViolation.js';

/** A sign-in method as its owner sees it (`GET /api/auth/methods`). */
export interface SignInMethod {
  id: string;
  kind: IdentityKind;
  /** In full: the owner is the one asking. */
  value: string;
  /** A phone number's findability for send-to-phone; `null` for e-mail addresses and wallets. */
  findable: boolean | null;
  /** Linked with the key's proof, or the account's first method (see `identities.trusted`). */
  trusted: boolean;
  /** Passkeys only: its name. */
  name?: string;
  /** Passkeys only: when it last signed in or proved a change; null when never. */
  lastUsedAt?: string | null;
  createdAt: string;
}

/**
 * The sign-in methods' rows as {@link toSignInMethod} reads them (`identities`, with a passkey's name and last
 * use): the query both the methods list and a change to one method start from, filtered by the caller.
 */
export function selectMethodRows(db: Kysely<Database>) {
  return db
    .selectFrom('identities')
    .leftJoin('passkeys', 'passkeys.identity_id', 'identities.id')
    .select([
      'identities.id',
      'identities.kind',
      'identities.value',
      'identities.findable',
      'identities.trusted',
      'identities.created_at',
      'passkeys.name',
      'passkeys.last_used_at',
    ]);
}

/** A row of `identities` as its owner sees it. */
export function toSignInMethod(row: {
  id: string;
  kind: IdentityKind;
  value: string;
  findable: number;
  trusted: number;
  created_at: string;
  name?: string | null;
  last_used_at?: string | null;
}): SignInMethod {
  return {
    id: row.id,
    kind: row.kind,
    value: row.value,
    findable: row.kind === 'phone' ? row.findable === 1 : null,
    trusted: Number(row.trusted) === 1,
    ...(row.kind === 'passkey' ? { name: row.name ?? '', lastUsedAt: row.last_used_at ?? null } : {}),
    createdAt: row.created_at,
  };
}

/**
 * Links a proven sign-in method (a phone number or e-mail address whose code was right, a wallet whose SIWE
 * signature held, a passkey whose attestation held) to a signed-in user; `stored`, when given, runs in the
 * same transaction with the new identity's id (a passkey's credential row goes in with it). Call it only after the proof: its refusals tell whether the value
 * belongs to another account.
 *
 * The cap holds under concurrency: on PostgreSQL the user's row is locked for the transaction, so two links
 * of one user run one at a time on every server; on SQLite one process's transactions already do.
 *
 * @throws {DialError} `method_already_linked` (the user's own), `method_taken` (another user's),
 * `methods_limit_reached` (the user has `maxMethods`).
 */
export async function linkMethod(
  db: Kysely<Database>,
  userId: string,
  method: { kind: IdentityKind; value: string },
  maxMethods: number,
  now: Date,
  trusted: boolean,
  stored?: (trx: Kysely<Database>, identityId: string) => Promise<{ name: string }>,
): Promise<SignInMethod> {
  try {
    return await db.transaction().execute(async (trx) => {
      if (dialectOf(db) === 'postgres') {
        await sql`select id from users where id = ${userId} for update`.execute(trx);
      }
      await checkLinkable(trx, userId, method.value, maxMethods);
      const row = {
        id: randomUUID(),
        kind: method.kind,
        value: method.value,
        user_id: userId,
        findable: 1,
        trusted: trusted ? 1 : 0,
        created_at: now.toISOString(),
      };
      await trx.insertInto('identities').values(row).execute();
      const extra = stored === undefined ? undefined : await stored(trx, row.id);
      return toSignInMethod({ ...row, name: extra?.name ?? null, last_used_at: null });
    });
  } catch (error) {
    // Another request linked or signed up this value between the check and the insert.
    if (isUniqueViolation(error)) await refuseExisting(db, userId, method.value);
    throw error;
  }
}

/**
 * Refuses a value that cannot be linked to the user now: theirs already, another account's, or one over
 * `maxMethods`. Checked when a change without proof is asked for, and again when it is made.
 *
 * @throws {DialError} `method_already_linked`, `method_taken`, `methods_limit_reached`.
 */
export async function checkLinkable(
  db: Kysely<Database>,
  userId: string,
  value: string,
  maxMethods: number,
): Promise<void> {
  await refuseExisting(db, userId, value);
  const { count } = await db
    .selectFrom('identities')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= maxMethods) throw new DialError('methods_limit_reached');
}

async function refuseExisting(db: Kysely<Database>, userId: string, value: string): Promise<void> {
  const owner = await db
    .selectFrom('identities')
    .select('user_id')
    .where('value', '=', value)
    .executeTakeFirst();
  if (owner !== undefined) {
    throw new DialError(owner.user_id === userId ? 'method_already_linked' : 'method_taken');
  }
  // Another account's embedded wallet is that account's, linked or not: one address, one account.
  const embedded = await db
    .selectFrom('wallets')
    .select('user_id')
    .where('address', '=', value)
    .executeTakeFirst();
  if (embedded !== undefined && embedded.user_id !== userId) throw new DialError('method_taken');
}
