import { randomUUID } from 'node:crypto';
import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 26: the key owns the account.
// - identities.trusted: 1 for a method the account started with or linked with the key's proof (every row
//   before this migration: what was linked then stays as it was), 0 for one linked after a cooling-off
//   without proof. An untrusted method cannot remove a trusted one, and only a trusted wallet becomes the
//   account's wallet (users.linked_wallet, recomputed by the triggers of 0011, now over trusted rows).
// - sessions.identity_id (the method that started the session; removing it ends them) and
//   sessions.device_hash (the browser: forgetting it ends them). Null for sessions from before.
// - known_devices.id (a UUID naming the browser in URLs, never its cookie's hash) and user_agent (the
//   browser's User-Agent at its latest sign-in, for its name in the list).
// - account_events: details (JSON: what the notice names) and read_at (the in-app list's unread ones), and no
//   check on kind any more: the kinds are core's and the code's union, and each new kind would rebuild the
//   table.
// - account_changes: a change asked for without the key's proof, waiting out its cooling-off period, until
//   it is applied, cancelled or fails.

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
type AnyDb = Kysely<any>;

function isSqlite(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** 0011's assignments, with linked_wallet read from trusted rows only. */
function identityAssignments(userId: string): string {
  const first = (kind: string, trustedOnly: boolean) =>
    `(select value from identities where identities.user_id = ${userId} and kind = '${kind}'` +
    `${trustedOnly ? ' and trusted = 1' : ''} order by created_at, value limit 1)`;
  return `phone = ${first('phone', false)}, email = ${first('email', false)}, linked_wallet = ${first('wallet', true)}`;
}

async function replaceIdentityTriggers(db: AnyDb, assignments: (userId: string) => string, changes: string) {
  if (isSqlite(db)) {
    const refresh = (row: 'new' | 'old') =>
      `update users set ${assignments(`${row}.user_id`)} where id = ${row}.user_id;`;
    for (const [event, when, rows] of [
      ['insert', 'insert', ['new']],
      ['delete', 'delete', ['old']],
      ['update', changes, ['old', 'new']],
    ] as const) {
      await sql.raw(`drop trigger identities_display_${event}`).execute(db);
      await sql
        .raw(
          `create trigger identities_display_${event} after ${when} on identities for each row ` +
            `begin ${rows.map(refresh).join(' ')} end`,
        )
        .execute(db);
    }
  } else {
    const refresh = (row: 'new' | 'old') => `
      perform 1 from users where id = ${row}.user_id for update;
      update users set ${assignments(`${row}.user_id`)} where id = ${row}.user_id;`;
    await sql
      .raw(`create or replace function identities_display() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then ${refresh('old')}
        end if;
        if tg_op in ('INSERT', 'UPDATE') then ${refresh('new')}
        end if;
        return null;
      end $$`)
      .execute(db);
    await sql.raw('drop trigger identities_display on identities').execute(db);
    await sql
      .raw(
        `create trigger identities_display after insert or delete or ${changes} on identities ` +
          'for each row execute function identities_display()',
      )
      .execute(db);
  }
  await sql.raw(`update users set ${assignments('users.id')}`).execute(db);
}

async function rebuildAccountEvents(db: AnyDb, withDetails: boolean) {
  await db.schema
    .createTable('account_events_next')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .$call((table) => (withDetails ? table.addColumn('details', 'text').addColumn('read_at', 'text') : table))
    .execute();
  await sql`
    insert into account_events_next (id, user_id, kind, created_at)
    select id, user_id, kind, created_at from account_events
  `.execute(db);
  await db.schema.dropTable('account_events').execute();
  await db.schema.alterTable('account_events_next').renameTo('account_events').execute();
  await db.schema
    .createIndex('account_events_user_id_created_at')
    .on('account_events')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('identities')
    .addColumn('trusted', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();
  await replaceIdentityTriggers(
    db,
    identityAssignments,
    'update of user_id, kind, value, created_at, trusted',
  );

  await db.schema.alterTable('sessions').addColumn('identity_id', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('device_hash', 'text').execute();
  await db.schema.createIndex('sessions_identity_id').on('sessions').column('identity_id').execute();
  await db.schema
    .createIndex('sessions_user_id_device_hash')
    .on('sessions')
    .columns(['user_id', 'device_hash'])
    .execute();

  await db.schema.alterTable('known_devices').addColumn('id', 'text').execute();
  await db.schema.alterTable('known_devices').addColumn('user_agent', 'text').execute();
  const devices = await db.selectFrom('known_devices').select(['user_id', 'device_hash']).execute();
  for (const device of devices) {
    await db
      .updateTable('known_devices')
      .set({ id: randomUUID() })
      .where('user_id', '=', device.user_id)
      .where('device_hash', '=', device.device_hash)
      .execute();
  }
  await db.schema.createIndex('known_devices_id').unique().on('known_devices').column('id').execute();

  await rebuildAccountEvents(db, true);

  await db.schema
    .createTable('account_changes')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('action', 'text', (column) => column.notNull())
    // JSON: what the change does (the method to link, the method to remove…).
    .addColumn('details', 'text', (column) => column.notNull())
    // The session (its public id) and method that asked, and the browser's name, for the owner to see.
    .addColumn('requested_by_session', 'text')
    .addColumn('requested_by_identity', 'text')
    .addColumn('requested_from', 'text')
    .addColumn('status', 'text', (column) =>
      column.notNull().check(sql`status in ('pending', 'applied', 'cancelled', 'failed')`),
    )
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('applies_at', 'text', (column) => column.notNull())
    .addColumn('settled_at', 'text')
    // Why a change failed when it came due (an error code), or who cancelled it.
    .addColumn('outcome', 'text')
    .execute();
  await db.schema
    .createIndex('account_changes_user_id_created_at')
    .on('account_changes')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('account_changes_due')
    .on('account_changes')
    .columns(['status', 'applies_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('account_changes').execute();
  await rebuildAccountEvents(db, false);
  await db.schema.dropIndex('known_devices_id').execute();
  await db.schema.alterTable('known_devices').dropColumn('user_agent').execute();
  await db.schema.alterTable('known_devices').dropColumn('id').execute();
  await db.schema.dropIndex('sessions_user_id_device_hash').execute();
  await db.schema.dropIndex('sessions_identity_id').execute();
  await db.schema.alterTable('sessions').dropColumn('device_hash').execute();
  await db.schema.alterTable('sessions').dropColumn('identity_id').execute();
  const before = (userId: string) => identityAssignments(userId).replace(' and trusted = 1', '');
  await replaceIdentityTriggers(db, before, 'update of user_id, kind, value, created_at');
  await db.schema.alterTable('identities').dropColumn('trusted').execute();
}
