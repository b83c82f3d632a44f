import type { Kysely } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 12: the history's first page costs the same for 5,000 transfers as for 10. A page is read in the
// order (created_at desc, id desc) from each side of a user's transfers: with id in these indexes, a side's
// entries come in that order without a sort (the sent side's from the index alone), and only the page's own
// rows are read whole; each replaces the (user, created_at) index whose look-ups it also serves.

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function up(db: Kysely<any>): Promise<void> {
  for (const side of ['sender', 'recipient'] as const) {
    await db.schema
      .createIndex(`transfers_${side}_created_at_id`)
      .on('transfers')
      .columns([`${side}_user_id`, 'created_at', 'id'])
      .execute();
    await db.schema.dropIndex(`transfers_${side}_created_at`).execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function down(db: Kysely<any>): Promise<void> {
  for (const side of ['sender', 'recipient'] as const) {
    await db.schema
      .createIndex(`transfers_${side}_created_at`)
      .on('transfers')
      .columns([`${side}_user_id`, 'created_at'])
      .execute();
    await db.schema.dropIndex(`transfers_${side}_created_at_id`).execute();
  }
}
