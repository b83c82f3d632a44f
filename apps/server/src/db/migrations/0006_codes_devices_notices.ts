import { type Kysely, sql } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 8 §5, §6 and §2: codes by purpose, codes bound to a browser, known browsers, proof-of-work
// challenges used once, and the owner's account events.
// - otp_codes is rebuilt with `purpose` ('sign-in' or 'reauth') and `device_hash` (SHA-256 of the browser's
//   `dial_device` cookie) in its primary key. Pending codes are kept: a row whose identifier starts with
//   `reauth:` (how 0001..0005 stored re-authentication codes) becomes purpose 'reauth' with the plain
//   identifier, any other row purpose 'sign-in'; both get device_hash '' (no browser), which only a request
//   without a device cookie (a browser that asked before the upgrade) looks up, and which the server checks
//   with the old hash input.
// - known_devices: the browsers (device cookie hashes) a user signed in from; they get their own code budget.
// - proof_of_work_uses: the challenges whose solution was accepted, so a solution works once on every server.
// - account_events: what the owner was told about (share rotation, recovery change, export, new browser).

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('otp_codes_by_purpose')
    .addColumn('purpose', 'text', (column) => column.notNull().check(sql`purpose in ('sign-in', 'reauth')`))
    .addColumn('channel', 'text', (column) => column.notNull())
    .addColumn('identifier', 'text', (column) => column.notNull())
    .addColumn('device_hash', 'text', (column) => column.notNull())
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('otp_codes_by_purpose_pk', ['purpose', 'channel', 'identifier', 'device_hash'])
    .execute();
  // 'reauth:' is 7 characters: substr(…, 8) is the identifier after it (1-based in SQLite and PostgreSQL).
  await sql`
    insert into otp_codes_by_purpose
      (purpose, channel, identifier, device_hash, code_hash, expires_at, attempts, created_at)
    select
      case when identifier like 'reauth:%' then 'reauth' else 'sign-in' end,
      channel,
      case when identifier like 'reauth:%' then substr(identifier, 8) else identifier end,
      '',
      code_hash, expires_at, attempts, created_at
    from otp_codes
  `.execute(db);
  await db.schema.dropTable('otp_codes').execute();
  await db.schema.alterTable('otp_codes_by_purpose').renameTo('otp_codes').execute();
  await db.schema.createIndex('otp_codes_expires_at').on('otp_codes').column('expires_at').execute();

  await db.schema
    .createTable('known_devices')
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_hash', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_seen_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('known_devices_pk', ['user_id', 'device_hash'])
    .execute();
  await db.schema
    .createIndex('known_devices_last_seen_at')
    .on('known_devices')
    .column('last_seen_at')
    .execute();

  await db.schema
    .createTable('proof_of_work_uses')
    .addColumn('challenge_hash', 'text', (column) => column.primaryKey())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('proof_of_work_uses_expires_at')
    .on('proof_of_work_uses')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('account_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (column) =>
      column
        .notNull()
        .check(sql`kind in ('shares-rotated', 'recovery-changed', 'key-exported', 'new-browser-sign-in')`),
    )
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('account_events_user_id_created_at')
    .on('account_events')
    .columns(['user_id', 'created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_events').execute();
  await db.schema.dropTable('proof_of_work_uses').execute();
  await db.schema.dropTable('known_devices').execute();

  // Back to one code per channel and identifier: codes bound to a browser cannot be told apart there, so
  // only the codes without a browser are kept, re-authentication ones under their `reauth:` prefix again.
  await db.schema
    .createTable('otp_codes_by_target')
    .addColumn('channel', 'text', (column) => column.notNull())
    .addColumn('identifier', 'text', (column) => column.notNull())
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('otp_codes_by_target_pk', ['channel', 'identifier'])
    .execute();
  await sql`
    insert into otp_codes_by_target (channel, identifier, code_hash, expires_at, attempts, created_at)
    select
      channel,
      case when purpose = 'reauth' then 'reauth:' || identifier else identifier end,
      code_hash, expires_at, attempts, created_at
    from otp_codes
    where device_hash = ''
  `.execute(db);
  await db.schema.dropTable('otp_codes').execute();
  await db.schema.alterTable('otp_codes_by_target').renameTo('otp_codes').execute();
  await db.schema.createIndex('otp_codes_expires_at').on('otp_codes').column('expires_at').execute();
}
