import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 10: sign in with an existing wallet, linked sign-in methods, sessions a person can see and end.
// - identities is rebuilt: an `id` (a UUID, so a method can be named in a URL without its value), kind
//   'wallet' besides 'phone' and 'email' (value: the EIP-55 checksummed address), and `findable` (1: others
//   may find this phone number's owner for send-to-phone; 0: not). Every existing row keeps its value, kind,
//   owner and time, gets a new id, and is findable (as every phone number was before).
// - sessions gain a public `id` (UUID: the sessions list names a session without its token's hash),
//   `user_agent` (the browser's User-Agent at sign-in, at most 512 characters) and `method` (the kind of
//   sign-in method that started it). Existing sessions get an id; the others stay null (unknown).
// - siwe_nonces: the nonces a Sign-In with Ethereum message must carry. Only the nonce's SHA-256 is stored.
//   A sign-in nonce is bound to the browser that asked (its device cookie's hash); a link nonce to the
//   session that asked (its token's hash). Single use: `used_at` is set, not the row deleted, so a replay
//   is told apart from a nonce never issued.
// - account_events may record 'method-linked' and 'method-removed'.
// - otp_codes is rebuilt so that `purpose` may also be 'link' (a code proving a phone number or e-mail
//   address the signed-in person links to their account); every pending code is kept as it is.

const IDENTITY_KINDS = sql`kind in ('phone', 'email', 'wallet')`;
const EVENT_KINDS_0006 = ['shares-rotated', 'recovery-changed', 'key-exported', 'new-browser-sign-in'];
const EVENT_KINDS_0008 = [...EVENT_KINDS_0006, 'method-linked', 'method-removed'];
const CODE_PURPOSES_0006 = ['sign-in', 'reauth'];
const CODE_PURPOSES_0008 = [...CODE_PURPOSES_0006, 'link'];
const BATCH = 500;

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
type AnyDb = Kysely<any>;

async function createIdentitiesTable(db: AnyDb, name: string): Promise<void> {
  await db.schema
    .createTable(name)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('value', 'text', (column) => column.notNull().unique())
    .addColumn('kind', 'text', (column) => column.notNull().check(IDENTITY_KINDS))
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('findable', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
}

async function rebuildAccountEvents(db: AnyDb, kinds: readonly string[], keep: readonly string[]) {
  const list = sql.join(kinds.map((kind) => sql.lit(kind)));
  await db.schema
    .createTable('account_events_next')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in (${list})`))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  const keepList = sql.join(keep.map((kind) => sql.lit(kind)));
  await sql`
    insert into account_events_next (id, user_id, kind, created_at)
    select id, user_id, kind, created_at from account_events where kind in (${keepList})
  `.execute(db);
  await db.schema.dropTable('account_events').execute();
  await db.schema.alterTable('account_events_next').renameTo('account_events').execute();
  await db.schema
    .createIndex('account_events_user_id_created_at')
    .on('account_events')
    .columns(['user_id', 'created_at'])
    .execute();
}

/** Rebuilds otp_codes (as 0006 made it) with a check allowing `purposes`, keeping the rows of `keep`. */
async function rebuildOtpCodes(db: AnyDb, purposes: readonly string[], keep: readonly string[]) {
  const list = sql.join(purposes.map((purpose) => sql.lit(purpose)));
  await db.schema
    .createTable('otp_codes_next')
    .addColumn('purpose', 'text', (column) => column.notNull().check(sql`purpose in (${list})`))
    .addColumn('channel', 'text', (column) => column.notNull())
    .addColumn('identifier', 'text', (column) => column.notNull())
    .addColumn('device_hash', 'text', (column) => column.notNull())
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    // Named after the purposes: PostgreSQL keeps the previous table's key index name until it is dropped.
    .addPrimaryKeyConstraint(`otp_codes_pk_${purposes.length}`, [
      'purpose',
      'channel',
      'identifier',
      'device_hash',
    ])
    .execute();
  const keepList = sql.join(keep.map((purpose) => sql.lit(purpose)));
  await sql`
    insert into otp_codes_next
      (purpose, channel, identifier, device_hash, code_hash, expires_at, attempts, created_at)
    select purpose, channel, identifier, device_hash, code_hash, expires_at, attempts, created_at
    from otp_codes where purpose in (${keepList})
  `.execute(db);
  await db.schema.dropTable('otp_codes').execute();
  await db.schema.alterTable('otp_codes_next').renameTo('otp_codes').execute();
  await db.schema.createIndex('otp_codes_expires_at').on('otp_codes').column('expires_at').execute();
}

export async function up(db: AnyDb): Promise<void> {
  await createIdentitiesTable(db, 'identities_next');
  for (let offset = 0; ; offset += BATCH) {
    const rows = await db
      .selectFrom('identities')
      .select(['value', 'kind', 'user_id', 'created_at'])
      .orderBy('value')
      .limit(BATCH)
      .offset(offset)
      .execute();
    if (rows.length === 0) break;
    await db
      .insertInto('identities_next')
      .values(rows.map((row) => ({ id: randomUUID(), ...row, findable: 1 })))
      .execute();
  }
  await db.schema.dropTable('identities').execute();
  await db.schema.alterTable('identities_next').renameTo('identities').execute();
  await db.schema.createIndex('identities_user_id').on('identities').column('user_id').execute();

  await db.schema.alterTable('sessions').addColumn('id', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('method', 'text').execute();
  const sessions = await db.selectFrom('sessions').select('token_hash').execute();
  for (const session of sessions) {
    await db
      .updateTable('sessions')
      .set({ id: randomUUID() })
      .where('token_hash', '=', session.token_hash)
      .execute();
  }
  await db.schema.createIndex('sessions_id').on('sessions').column('id').unique().execute();

  await db.schema
    .createTable('siwe_nonces')
    .addColumn('nonce_hash', 'text', (column) => column.primaryKey())
    .addColumn('purpose', 'text', (column) => column.notNull().check(sql`purpose in ('sign-in', 'link')`))
    .addColumn('device_hash', 'text')
    .addColumn('session_hash', 'text')
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('siwe_nonces_expires_at').on('siwe_nonces').column('expires_at').execute();

  await rebuildAccountEvents(db, EVENT_KINDS_0008, EVENT_KINDS_0006);
  await rebuildOtpCodes(db, CODE_PURPOSES_0008, CODE_PURPOSES_0006);
}

export async function down(db: AnyDb): Promise<void> {
  // Back to 0007: events of the new kinds, wallet sign-in methods and the nonces are dropped; phone numbers
  // and e-mail addresses are kept with their owners (turned-off findability is lost: 0007 had none). Pending
  // link codes are dropped; sign-in and re-authentication codes are kept.
  await rebuildOtpCodes(db, CODE_PURPOSES_0006, CODE_PURPOSES_0006);
  await rebuildAccountEvents(db, EVENT_KINDS_0006, EVENT_KINDS_0006);
  await db.schema.dropTable('siwe_nonces').execute();

  await db.schema.dropIndex('sessions_id').execute();
  await db.schema.alterTable('sessions').dropColumn('method').execute();
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
  await db.schema.alterTable('sessions').dropColumn('id').execute();

  await db.schema
    .createTable('identities_prev')
    .addColumn('value', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('phone', 'email')`))
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await sql`
    insert into identities_prev (value, kind, user_id, created_at)
    select value, kind, user_id, created_at from identities where kind in ('phone', 'email')
  `.execute(db);
  await db.schema.dropTable('identities').execute();
  await db.schema.alterTable('identities_prev').renameTo('identities').execute();
  await db.schema.createIndex('identities_user_id').on('identities').column('user_id').execute();
}
