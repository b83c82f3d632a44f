import { type Expression, type RawBuilder, sql } from 'kysely';
import type { IdentityKind } from '../db/database.js';

/**
 * A user's first sign-in method of a kind, as an SQL subquery for a column: its value (the phone number, the
 * e-mail address or the wallet's address), the earliest linked first, then by value; null when the user has
 * none. The one order behind `User.phone`, `User.email` and the account's linked wallet.
 *
 * @param kind - The kind of method (a constant of the query, not a parameter).
 * @param userId - The user's id: a column (`sql.ref('users.id')`) or a bound value (`sql.val(id)`).
 */
export function firstIdentity(
  kind: IdentityKind,
  userId: RawBuilder<string> | Expression<string>,
): RawBuilder<string | null> {
  return sql<string | null>`(select value from identities
    where identities.user_id = ${userId} and kind = ${sql.lit(kind)}
    order by created_at, value limit 1)`;
}
