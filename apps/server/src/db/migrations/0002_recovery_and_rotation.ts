import { type Kysely, sql } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 3: versioned key shares, the user's recovery share, and re-authentication for sensitive actions.
// - wallets.share_generation: which split of the key the stored auth share belongs to; share rotation
//   increments it with a conditional UPDATE, so two devices rotating at once cannot both win.
// - recovery_shares: the recovery share, encrypted in the browser (the server cannot read it), with the
//   generation it belongs to and the browser's KDF parameters (JSON).
// - sessions.reauthenticated_at: when this session last proved its owner with a fresh one-time code.

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('wallets')
    .addColumn('share_generation', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('recovery_shares')
    .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('generation', 'integer', (column) => column.notNull())
    .addColumn('method', 'text', (column) => column.notNull().check(sql`method in ('password', 'passkey')`))
    .addColumn('ciphertext', 'text', (column) => column.notNull())
    .addColumn('kdf', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema.alterTable('sessions').addColumn('reauthenticated_at', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('reauthenticated_at').execute();
  await db.schema.dropTable('recovery_shares').execute();
  await db.schema.alterTable('wallets').dropColumn('share_generation').execute();
}
