import type { Kysely } from 'kysely';
import { getAddress } from 'viem';
import { accountWallet } from '../auth/accountWallet.js';
import type { Database } from '../db/database.js';

/** An account whose wallet (`accountWallet`) an address is. */
export interface WalletAccount {
  userId: string;
  /** EIP-55. */
  wallet: string;
}

/** How many addresses one query asks about. */
const CHUNK = 500;

/**
 * The accounts whose wallet (`accountWallet`: the embedded one, else the first linked) each of `addresses`
 * is, by lower-case address; an address that is no account's wallet is left out. A few queries for any
 * number of addresses (a block range's recipients), then one check per hit.
 */
export async function accountsByWallet(
  db: Kysely<Database>,
  addresses: readonly string[],
): Promise<Map<string, WalletAccount>> {
  const found = new Map<string, WalletAccount>();
  const checksummed = [...new Set(addresses.map((address) => getAddress(address)))];
  for (let start = 0; start < checksummed.length; start += CHUNK) {
    const chunk = checksummed.slice(start, start + CHUNK);
    const [embedded, linked] = await Promise.all([
      db.selectFrom('wallets').select(['user_id', 'address']).where('address', 'in', chunk).execute(),
      db
        .selectFrom('identities')
        .select(['user_id', 'value as address'])
        .where('kind', '=', 'wallet')
        .where('value', 'in', chunk)
        .execute(),
    ]);
    for (const { user_id, address } of [...embedded, ...linked]) {
      // Only the account's wallet counts: a linked wallet of an account with an embedded one does not.
      const wallet = await accountWallet(db, user_id);
      if (wallet === null || wallet.address !== address) continue;
      found.set(address.toLowerCase(), { userId: user_id, wallet: address });
    }
  }
  return found;
}
