import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { OutboxRecord, OutboxStore } from '../delivery/index.js';

/** The most messages `list` returns. */
export const OUTBOX_LIST_LIMIT = 100;

/** The dev outbox kept in the `outbox_messages` table, so every server sharing the database sees it. */
export function createDatabaseOutboxStore(db: Kysely<Database>, now: () => Date): OutboxStore {
  return {
    async add(message) {
      const record: OutboxRecord = { ...message, id: randomUUID(), createdAt: now().toISOString() };
      await db
        .insertInto('outbox_messages')
        .values({
          id: record.id,
          channel: record.channel,
          recipient: record.to,
          subject: record.subject,
          body: record.text,
          code: record.code ?? null,
          created_at: record.createdAt,
        })
        .execute();
      return record;
    },
    async list(limit = OUTBOX_LIST_LIMIT) {
      const rows = await db
        .selectFrom('outbox_messages')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(Math.max(0, Math.min(limit, OUTBOX_LIST_LIMIT)))
        .execute();
      return rows.map((row) => ({
        id: row.id,
        channel: row.channel,
        to: row.recipient,
        subject: row.subject,
        text: row.body,
        ...(row.code === null ? {} : { code: row.code }),
        createdAt: row.created_at,
      }));
    },
  };
}
