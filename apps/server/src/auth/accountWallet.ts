import { type Kysely, sql } from 'kysely';
import { getAddress } from 'viem';
import type { Database } from '../db/database.js';
import { preparedQuery } from '../db/preparedQuery.js';

/**
 * The wallet an account sends and receives with: its embedded wallet when it has one, else the first wallet it
 * linked as a sign-in method (an external wallet, which signs in its own app: Dial holds none of its key).
 */
export interface AccountWallet {
  /** EIP-55 checksummed. */
  address: `0x${string}`;
  kind: 'embedded' | 'external';
}

/** The account's wallet in SQL: the two columns {@link readAccountWallet} turns into an {@link AccountWallet}. */
export interface AccountWalletColumns {
  /** The address of the account's embedded wallet (a user has at most one), or null. */
  embedded_wallet: string | null;
  /** The first wallet the account linked as a sign-in method (by when, then by address), or null. */
  linked_wallet: string | null;
}

/**
 * The account's wallet ({@link AccountWallet}) as the two columns of the user's row that hold it (kept there
 * by the database, migration 0011): `embedded_wallet` and `linked_wallet` ({@link AccountWalletColumns}), read
 * back with {@link readAccountWallet}. With {@link accountWallet} and `GET /api/me`'s session query
 * (auth/users.ts), the one definition of "the user's wallet".
 */
export const accountWalletColumns = ['users.embedded_wallet', 'users.linked_wallet'] as const;

/** The account's wallet from its {@link accountWalletColumns}: the embedded one, else the first linked one. */
export function readAccountWallet(columns: AccountWalletColumns): AccountWallet | null {
  if (columns.embedded_wallet !== null) {
    return { address: columns.embedded_wallet as `0x${string}`, kind: 'embedded' };
  }
  return columns.linked_wallet === null
    ? null
    : { address: columns.linked_wallet as `0x${string}`, kind: 'external' };
}

const selectAccountWallet = preparedQuery((db, userId: string) =>
  db.selectFrom('users').select(accountWalletColumns).where('users.id', '=', userId),
);

/**
 * The account's wallet ({@link AccountWallet}): the one rule for "the user's wallet" wherever the server needs
 * it (`GET /api/me`, send-to-phone look-ups, recording and checking transfers, the on-ramp), in one query
 * ({@link accountWalletColumns}). `null` when the account has neither an embedded wallet nor a linked one.
 */
export async function accountWallet(db: Kysely<Database>, userId: string): Promise<AccountWallet | null> {
  const [row] = await selectAccountWallet(db, userId);
  return row === undefined ? null : readAccountWallet(row);
}

/**
 * The account whose wallet ({@link accountWallet}) is `address`, compared without regard to case; `undefined`
 * when no account's wallet is that address (a linked wallet that is not the account's wallet does not count).
 */
export async function findAccountByWallet(
  db: Kysely<Database>,
  address: string,
): Promise<string | undefined> {
  // Addresses are stored checksummed; compared in lower case all the same, whatever wrote them.
  const embedded = await db
    .selectFrom('wallets')
    .select('user_id')
    .where(sql<string>`lower(address)`, '=', address.toLowerCase())
    .orderBy('created_at')
    .orderBy('user_id')
    .limit(1)
    .executeTakeFirst();
  if (embedded !== undefined) return embedded.user_id;
  let checksummed: string;
  try {
    checksummed = getAddress(address);
  } catch {
    return undefined;
  }
  const linked = await db
    .selectFrom('identities')
    .select('user_id')
    .where('kind', '=', 'wallet')
    .where('value', '=', checksummed)
    .executeTakeFirst();
  if (linked === undefined) return undefined;
  const wallet = await accountWallet(db, linked.user_id);
  return wallet?.address === checksummed ? linked.user_id : undefined;
}
