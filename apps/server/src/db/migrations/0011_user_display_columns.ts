import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 12: what `GET /api/me` and every route behind a session show of a user, kept on the user's row, so that
// the session read on every authenticated request is two primary-key look-ups (the session, its user) instead
// of those plus four subqueries:
// - phone, email: the user's first phone number and e-mail address (the earliest linked, then the lower
//   value), null when there is none;
// - linked_wallet: the first wallet linked as a sign-in method, in the same order, null when none;
// - embedded_wallet: the address of the user's embedded wallet (at most one), null when none.
// Triggers keep them, in the transaction of every write to `identities` or `wallets`, whatever makes it (the
// API, an operator's SQL, a later migration): the one definition of "first", which the code only reads. On
// PostgreSQL, an identity's trigger first locks the user's row and reads in a statement of its own, so two
// transactions linking methods to one user at once cannot each write what they saw without the other's.

const IDENTITY_COLUMNS = ['phone', 'email', 'linked_wallet'] as const;

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** `phone = (…), email = (…), linked_wallet = (…)` for the user whose id is `userId` (SQL text). */
function identityAssignments(userId: string): string {
  const kinds = { phone: 'phone', email: 'email', linked_wallet: 'wallet' } as const;
  return IDENTITY_COLUMNS.map(
    (column) =>
      `${column} = (select value from identities where identities.user_id = ${userId} ` +
      `and kind = '${kinds[column]}' order by created_at, value limit 1)`,
  ).join(', ');
}

function walletAssignment(userId: string): string {
  return `embedded_wallet = (select address from wallets where wallets.user_id = ${userId})`;
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of [...IDENTITY_COLUMNS, 'embedded_wallet']) {
    await db.schema.alterTable('users').addColumn(column, 'text').execute();
  }
  await sql
    .raw(`update users set ${identityAssignments('users.id')}, ${walletAssignment('users.id')}`)
    .execute(db);

  const tables = [
    ['identities', identityAssignments, 'update of user_id, kind, value, created_at'],
    ['wallets', walletAssignment, 'update of user_id, address'],
  ] as const;
  if (isSqlite(db)) {
    // SQLite runs one write transaction at a time: the triggers recompute the columns from what they see.
    for (const [table, assignments, changes] of tables) {
      const refresh = (row: 'new' | 'old') =>
        `update users set ${assignments(`${row}.user_id`)} where id = ${row}.user_id;`;
      for (const [event, when, rows] of [
        ['insert', 'insert', ['new']],
        ['delete', 'delete', ['old']],
        ['update', changes, ['old', 'new']],
      ] as const) {
        await sql
          .raw(
            `create trigger ${table}_display_${event} after ${when} on ${table} for each row ` +
              `begin ${rows.map(refresh).join(' ')} end`,
          )
          .execute(db);
      }
    }
    return;
  }

  for (const [table, assignments, changes] of tables) {
    // A statement each: under READ COMMITTED, the update's snapshot is taken after the lock was granted, so it
    // sees what a transaction that held the lock before had committed.
    const refresh = (row: 'new' | 'old') => `
      perform 1 from users where id = ${row}.user_id for update;
      update users set ${assignments(`${row}.user_id`)} where id = ${row}.user_id;`;
    await sql
      .raw(`create function ${table}_display() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then ${refresh('old')}
        end if;
        if tg_op in ('INSERT', 'UPDATE') then ${refresh('new')}
        end if;
        return null;
      end $$`)
      .execute(db);
    await sql
      .raw(
        `create trigger ${table}_display after insert or delete or ${changes} on ${table} ` +
          `for each row execute function ${table}_display()`,
      )
      .execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    for (const table of ['identities', 'wallets']) {
      for (const event of ['insert', 'delete', 'update']) {
        await sql.raw(`drop trigger ${table}_display_${event}`).execute(db);
      }
    }
  } else {
    for (const table of ['identities', 'wallets']) {
      await sql.raw(`drop trigger ${table}_display on ${table}`).execute(db);
      await sql.raw(`drop function ${table}_display()`).execute(db);
    }
  }
  for (const column of [...IDENTITY_COLUMNS, 'embedded_wallet']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
