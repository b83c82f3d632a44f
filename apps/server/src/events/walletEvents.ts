import type { WalletEvent } from '@dial/api';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/** What appending an event needs: the database and the clock (the app's context has both). */
export interface WalletEventDeps {
  db: Kysely<Database>;
  now: () => Date;
  /**
   * Wakes the streams of `userId` at once, on this server and (with Redis) on every other one; without it
   * they find the event at their next poll of the table. The app's context has it.
   */
  wakeWalletStreams?: (userId: string) => void;
}

/**
 * Appends an event to a user's wallet stream (`wallet_events`). Every server's `GET /api/events` streams
 * from this table, so the server that saw the change need not be the one holding the person's stream; the
 * wake-up (`wakeWalletStreams`) only makes it arrive sooner.
 */
export async function publishWalletEvent(
  deps: WalletEventDeps,
  userId: string,
  event: WalletEvent,
): Promise<void> {
  await deps.db
    .insertInto('wallet_events')
    .values({
      user_id: userId,
      kind: event.kind,
      payload: JSON.stringify(event),
      created_at: deps.now().toISOString(),
    })
    .execute();
  // After the commit: a stream woken before it could not read the row yet.
  deps.wakeWalletStreams?.(userId);
}
