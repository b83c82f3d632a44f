import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 28, point 4: passkeys (WebAuthn) sign in, and are sign-in methods of the account like a phone number,
// an e-mail address or a wallet.
// - identities.kind may be 'passkey' (value: the credential id, base64url, as the authenticator gave it; case
//   matters). PostgreSQL replaces the check; SQLite cannot alter one, so the table is rebuilt from its own
//   schema text with the check widened, its rows, indexes and triggers (0011, 0013) kept as they were.
// - passkeys: what WebAuthn needs of each credential, one row per passkey identity (deleted with it): its
//   COSE public key, signature counter, transports, the user handle it was made with, its AAGUID, the name
//   its owner gave it, and when it was made and last used.
// - webauthn_challenges: the single-use challenges of passkey ceremonies (sign-up, sign-in, link), only
//   their SHA-256 stored, bound to the browser (`dial_device`'s hash) for sign-up and sign-in and to the
//   session (its token's hash) for linking, deleted when used. A step-up assertion signs the account
//   change's own challenge (`wallet_challenges`), not one of these.

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
type AnyDb = Kysely<any>;

const KINDS_0008 = "kind in ('phone', 'email', 'wallet')";
const KINDS_0015 = "kind in ('phone', 'email', 'wallet', 'passkey')";

function isSqlite(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** Replaces identities' check on kind with `to` (the other statements and rows as they are). */
async function replaceKindCheck(db: AnyDb, from: string, to: string): Promise<void> {
  if (!isSqlite(db)) {
    const { rows } = await sql<{ conname: string }>`
      select conname from pg_constraint
      where conrelid = 'identities'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%kind%'
    `.execute(db);
    for (const row of rows) {
      await sql`alter table identities drop constraint ${sql.id(row.conname)}`.execute(db);
    }
    await sql.raw(`alter table identities add constraint identities_kind_check check (${to})`).execute(db);
    return;
  }
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = 'identities'
  `.execute(db);
  const table = rows.find((row) => row.type === 'table');
  if (table?.sql == null || !table.sql.includes(from)) {
    throw new Error(`identities' schema does not hold the check ${from}`);
  }
  const others = rows.filter((row) => row.type !== 'table' && row.sql !== null);
  const created = table.sql
    .replace(from, to)
    .replace(/^CREATE TABLE "?identities"?/i, 'create table identities_next');
  await sql.raw(created).execute(db);
  await sql`insert into identities_next select * from identities`.execute(db);
  await sql`drop table identities`.execute(db);
  await sql`alter table identities_next rename to identities`.execute(db);
  for (const row of others) await sql.raw(row.sql as string).execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  await replaceKindCheck(db, KINDS_0008, KINDS_0015);

  await db.schema
    .createTable('passkeys')
    .addColumn('identity_id', 'text', (column) =>
      column.primaryKey().references('identities.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (column) => column.notNull().unique())
    .addColumn('public_key', 'text', (column) => column.notNull())
    .addColumn('counter', 'bigint', (column) => column.notNull())
    .addColumn('transports', 'text', (column) => column.notNull())
    .addColumn('user_handle', 'text', (column) => column.notNull())
    .addColumn('aaguid', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('backed_up', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_user_id').on('passkeys').column('user_id').execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge_hash', 'text', (column) => column.primaryKey())
    .addColumn('purpose', 'text', (column) =>
      column.notNull().check(sql`purpose in ('sign-up', 'sign-in', 'link')`),
    )
    .addColumn('device_hash', 'text')
    .addColumn('session_hash', 'text')
    .addColumn('user_handle', 'text')
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('webauthn_challenges_expires_at')
    .on('webauthn_challenges')
    .column('expires_at')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('webauthn_challenges').execute();
  await db.schema.dropTable('passkeys').execute();
  await db.deleteFrom('identities').where('kind', '=', 'passkey').execute();
  await replaceKindCheck(db, KINDS_0015, KINDS_0008);
}
