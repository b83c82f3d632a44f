import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { getAddress } from 'viem';
import type { Database } from '../db/database.js';

/**
 * The wallet an account sends and receives with: its embedded wallet when it has one, else the first wallet it
 * linked as a sign-in method (an external wallet, which signs in its own app: Dial holds none of its key).
 */
export interface AccountWallet {
  /** EIP-55 checksummed. */
  address: `0x${string}`;
  kind: 'embedded' | 'external';
}

/**
 * The account's wallet ({@link AccountWallet}): the one rule for "the user's wallet" wherever the server needs
 * it (`GET /api/me`, send-to-phone look-ups, recording and checking transfers, the on-ramp). `null` when the
 * account has neither an embedded wallet nor a linked one.
 */
export async function accountWallet(db: Kysely<Database>, userId: string): Promise<AccountWallet | null> {
  const embedded = await db
    .selectFrom('wallets')
    .select('address')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (embedded !== undefined) return { address: embedded.address as `0x${string}`, kind: 'embedded' };
  const linked = await db
    .selectFrom('identities')
    .select('value')
    .where('user_id', '=', userId)
    .where('kind', '=', 'wallet')
    .orderBy('created_at')
    .orderBy('value')
    .limit(1)
    .executeTakeFirst();
  return linked === undefined ? null : { address: linked.value as `0x${string}`, kind: 'external' };
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
