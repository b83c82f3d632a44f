import type { Kysely } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 8 §1, proof of possession: only the wallet's key registers a wallet or replaces its shares.
// - wallet_challenges: single-use challenges a wallet's key signs, bound to the user, the session (hash of
//   its token) and the purpose; short-lived. Only the challenge's SHA-256 is stored.
// - One address belongs to at most one user: a unique index on wallets.address (stored EIP-55 checksummed).
//   Before it, anyone could register any address. Where two users registered the same address, the first
//   registration is kept (a key is made in the owner's browser and its address is shown only after it was
//   registered, so a later one is a squatter's); later ones move to disputed_wallets, kept for the operator
//   to review rather than deleted.

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('wallet_challenges')
    .addColumn('challenge_hash', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_hash', 'text', (column) => column.notNull())
    .addColumn('purpose', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('wallet_challenges_expires_at')
    .on('wallet_challenges')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('disputed_wallets')
    .addColumn('user_id', 'text', (column) => column.primaryKey())
    .addColumn('address', 'text', (column) => column.notNull())
    .addColumn('auth_share_ciphertext', 'text', (column) => column.notNull())
    .addColumn('iv', 'text', (column) => column.notNull())
    .addColumn('key_version', 'integer', (column) => column.notNull())
    .addColumn('share_generation', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('moved_at', 'text', (column) => column.notNull())
    .execute();

  const movedAt = new Date().toISOString();
  await db
    .insertInto('disputed_wallets')
    .columns([
      'user_id',
      'address',
      'auth_share_ciphertext',
      'iv',
      'key_version',
      'share_generation',
      'created_at',
      'moved_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('wallets as w')
        .select([
          'w.user_id',
          'w.address',
          'w.auth_share_ciphertext',
          'w.iv',
          'w.key_version',
          'w.share_generation',
          'w.created_at',
          eb.val(movedAt).as('moved_at'),
        ])
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('wallets as e')
              .select('e.user_id')
              .whereRef('e.address', '=', 'w.address')
              .where((inner) =>
                inner.or([
                  inner('e.created_at', '<', inner.ref('w.created_at')),
                  inner.and([
                    inner('e.created_at', '=', inner.ref('w.created_at')),
                    inner('e.user_id', '<', inner.ref('w.user_id')),
                  ]),
                ]),
              ),
          ),
        ),
    )
    .execute();
  await db
    .deleteFrom('wallets')
    .where('user_id', 'in', db.selectFrom('disputed_wallets').select('user_id'))
    .execute();
  await db.schema.createIndex('wallets_address_unique').on('wallets').column('address').unique().execute();
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('wallets_address_unique').execute();
  await db.schema.dropTable('disputed_wallets').execute();
  await db.schema.dropTable('wallet_challenges').execute();
}
