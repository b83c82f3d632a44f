import type { Kysely } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 12: a user's first phone number, e-mail address and linked wallet are read on every authenticated
// request (`GET /api/me` and every route behind a session), each as "the user's first identity of a kind,
// by created_at then value". identities_user_kind answers each from the index alone, in order, without
// reading or sorting the user's rows; it replaces identities_user_id, whose look-ups by user it also serves.

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('identities_user_kind')
    .on('identities')
    .columns(['user_id', 'kind', 'created_at', 'value'])
    .execute();
  await db.schema.dropIndex('identities_user_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('identities_user_id').on('identities').column('user_id').execute();
  await db.schema.dropIndex('identities_user_kind').execute();
}
