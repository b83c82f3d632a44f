import type { Kysely } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 4 §2, the on-ramp sandbox: the session tokens this server issued for its own checkout page.
// - token_hash: SHA-256 of the token, hex; the token itself is never stored.
// - The purchase the token is for (wallet address, asset, provider network, amount, experience), fixed when
//   it is issued, so the checkout page cannot be made to credit anything else.
// - used_at: set once, by an atomic conditional update, when the checkout pays: single use across servers.
// - outcome: what crediting the wallet ended with (`credited`, `failed`), null before payment.

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('onramp_sessions')
    .addColumn('token_hash', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('wallet_address', 'text', (column) => column.notNull())
    .addColumn('asset', 'text', (column) => column.notNull())
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('amount', 'text', (column) => column.notNull())
    .addColumn('experience', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .addColumn('outcome', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('onramp_sessions_expires_at')
    .on('onramp_sessions')
    .column('expires_at')
    .execute();
  await db.schema.createIndex('onramp_sessions_user_id').on('onramp_sessions').column('user_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('onramp_sessions').execute();
}
