import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 8 §4, activity checked against the chain: the server reads every recorded transfer from its chain
// and only then believes it.
// - One row per (chain_id, tx_hash, sender_user_id) instead of per (chain_id, tx_hash): a false claim of a
//   hash that is not on the chain yet no longer blocks its real sender's record; the check drops it.
// - At most one settled row (confirmed or failed: proven by the chain) per (chain_id, tx_hash), by a
//   partial unique index.
// - The check's schedule, kept in the row so that any server runs it and a restart loses nothing:
//   next_check_at (null once settled), check_attempts, checked_at (when the last check started),
//   claimed_until (a server working on it), missing_since (since when the RPC says it does not know it).
// - Every existing row goes back to pending, due at once: its status was what the sender's browser said.
//
// SQLite cannot drop a table's UNIQUE constraint, so there the table is rebuilt; PostgreSQL alters it.

const SCHEDULE_COLUMNS = ['next_check_at', 'check_attempts', 'checked_at', 'claimed_until', 'missing_since'];
const COLUMNS_0003 = [
  'id',
  'sender_user_id',
  'chain_id',
  'tx_hash',
  'from_address',
  'to_address',
  'asset',
  'amount',
  'recipient_user_id',
  'recipient_phone',
  'status',
  'created_at',
  'updated_at',
];

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** The 0003 table, with or without the schedule columns, and its unique key. */
// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
async function createTransfersTable(db: Kysely<any>, name: string, version: '0003' | '0007') {
  let table = db.schema
    .createTable(name)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('sender_user_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('chain_id', 'integer', (column) => column.notNull())
    .addColumn('tx_hash', 'text', (column) => column.notNull())
    .addColumn('from_address', 'text', (column) => column.notNull())
    .addColumn('to_address', 'text', (column) => column.notNull())
    .addColumn('asset', 'text', (column) => column.notNull().check(sql`asset in ('native', 'usdc')`))
    .addColumn('amount', 'text', (column) => column.notNull())
    .addColumn('recipient_user_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('recipient_phone', 'text')
    .addColumn('status', 'text', (column) =>
      column.notNull().check(sql`status in ('pending', 'confirmed', 'failed')`),
    )
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull());
  if (version === '0007') {
    table = table
      .addColumn('next_check_at', 'text')
      .addColumn('check_attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('checked_at', 'text')
      .addColumn('claimed_until', 'text')
      .addColumn('missing_since', 'text')
      .addUniqueConstraint('transfers_chain_id_tx_hash_sender', ['chain_id', 'tx_hash', 'sender_user_id']);
  } else {
    table = table.addUniqueConstraint('transfers_chain_id_tx_hash', ['chain_id', 'tx_hash']);
  }
  await table.execute();
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
async function createIndexes(db: Kysely<any>) {
  await db.schema
    .createIndex('transfers_sender_created_at')
    .on('transfers')
    .columns(['sender_user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('transfers_recipient_created_at')
    .on('transfers')
    .columns(['recipient_user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('transfers_to_address').on('transfers').column('to_address').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    await createTransfersTable(db, 'transfers_0007', '0007');
    await db
      .insertInto('transfers_0007')
      .columns(COLUMNS_0003)
      .expression(db.selectFrom('transfers').select(COLUMNS_0003))
      .execute();
    await db.schema.dropTable('transfers').execute();
    await db.schema.alterTable('transfers_0007').renameTo('transfers').execute();
    await createIndexes(db);
  } else {
    await db.schema.alterTable('transfers').dropConstraint('transfers_chain_id_tx_hash').execute();
    await db.schema
      .alterTable('transfers')
      .addUniqueConstraint('transfers_chain_id_tx_hash_sender', ['chain_id', 'tx_hash', 'sender_user_id'])
      .execute();
    await db.schema.alterTable('transfers').addColumn('next_check_at', 'text').execute();
    await db.schema
      .alterTable('transfers')
      .addColumn('check_attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .execute();
    for (const name of ['checked_at', 'claimed_until', 'missing_since']) {
      await db.schema.alterTable('transfers').addColumn(name, 'text').execute();
    }
  }
  await db
    .updateTable('transfers')
    .set((eb) => ({ status: 'pending', next_check_at: eb.ref('created_at') }))
    .execute();
  // Literal SQL: a partial index's condition cannot be a bound parameter.
  await sql`create unique index transfers_settled_chain_id_tx_hash on transfers (chain_id, tx_hash) where status <> 'pending'`.execute(
    db,
  );
  await db.schema.createIndex('transfers_next_check_at').on('transfers').column('next_check_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function down(db: Kysely<any>): Promise<void> {
  // One row per (chain_id, tx_hash) again: a settled row wins, else the earliest recorded.
  await db
    .deleteFrom('transfers as t')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('transfers as o')
          .select('o.id')
          .whereRef('o.chain_id', '=', 't.chain_id')
          .whereRef('o.tx_hash', '=', 't.tx_hash')
          .whereRef('o.id', '<>', 't.id')
          .where((eb) =>
            eb.or([
              eb.and([eb('o.status', '<>', 'pending'), eb('t.status', '=', 'pending')]),
              eb.and([
                eb('t.status', '=', 'pending'),
                eb('o.status', '=', 'pending'),
                eb.or([
                  eb('o.created_at', '<', eb.ref('t.created_at')),
                  eb.and([eb('o.created_at', '=', eb.ref('t.created_at')), eb('o.id', '<', eb.ref('t.id'))]),
                ]),
              ]),
            ]),
          ),
      ),
    )
    .execute();
  await db.schema.dropIndex('transfers_next_check_at').execute();
  await db.schema.dropIndex('transfers_settled_chain_id_tx_hash').execute();
  if (isSqlite(db)) {
    await createTransfersTable(db, 'transfers_0003', '0003');
    await db
      .insertInto('transfers_0003')
      .columns(COLUMNS_0003)
      .expression(db.selectFrom('transfers').select(COLUMNS_0003))
      .execute();
    await db.schema.dropTable('transfers').execute();
    await db.schema.alterTable('transfers_0003').renameTo('transfers').execute();
    await createIndexes(db);
  } else {
    for (const name of SCHEDULE_COLUMNS) await db.schema.alterTable('transfers').dropColumn(name).execute();
    await db.schema.alterTable('transfers').dropConstraint('transfers_chain_id_tx_hash_sender').execute();
    await db.schema
      .alterTable('transfers')
      .addUniqueConstraint('transfers_chain_id_tx_hash', ['chain_id', 'tx_hash'])
      .execute();
  }
}
