import { type Kysely, sql } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('identities')
    .addColumn('value', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('phone', 'email')`))
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('identities_user_id').on('identities').column('user_id').execute();

  await db.schema
    .createTable('otp_codes')
    .addColumn('channel', 'text', (column) => column.notNull())
    .addColumn('identifier', 'text', (column) => column.notNull())
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('otp_codes_pk', ['channel', 'identifier'])
    .execute();
  await db.schema.createIndex('otp_codes_expires_at').on('otp_codes').column('expires_at').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_seen_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('wallets')
    .addColumn('user_id', 'text', (column) => column.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('address', 'text', (column) => column.notNull())
    .addColumn('auth_share_ciphertext', 'text', (column) => column.notNull())
    .addColumn('iv', 'text', (column) => column.notNull())
    .addColumn('key_version', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('window_start', 'text', (column) => column.notNull())
    .addColumn('count', 'integer', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_window_start').on('rate_limits').column('window_start').execute();

  await db.schema
    .createTable('outbox_messages')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('channel', 'text', (column) => column.notNull())
    .addColumn('recipient', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('body', 'text', (column) => column.notNull())
    .addColumn('code', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('outbox_messages_created_at')
    .on('outbox_messages')
    .column('created_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'outbox_messages',
    'rate_limits',
    'wallets',
    'sessions',
    'otp_codes',
    'identities',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
