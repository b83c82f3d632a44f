import { listNoticesRoute, MAX_NOTICES_PAGE_SIZE, markNoticesReadRoute, type Notice } from '@dial/api';
import { DialError } from '@dial/core';
import type { AppContext } from '../appContext.js';
import { decodeCursor, encodeCursor } from '../db/pageCursor.js';
import type { TypedApp } from '../http/typedApp.js';

/**
 * The account's security notices in the app (`account_events`: what its phones and e-mail addresses were
 * sent, and all a wallet-only account is told): listed newest first, a page at a time by a keyset cursor on
 * (created_at, id), with the unread count; and marked read. Every query is bound to the session's user: an
 * id of another user's notice answers `404 not_found`, as one that does not exist.
 */
export function registerNoticeRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    listNoticesRoute.url,
    { preHandler: app.requireUser, schema: listNoticesRoute.schema },
    async (request) => {
      const userId = request.user!.id;
      const limit = request.query.limit ?? MAX_NOTICES_PAGE_SIZE;
      const cursor = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor);
      const rows = await ctx.db
        .selectFrom('account_events')
        .select(['id', 'kind', 'details', 'created_at', 'read_at'])
        .where('user_id', '=', userId)
        .$if(cursor !== undefined, (query) =>
          // Older than the cursor in the order (created_at desc, id desc); the first term is a range of the
          // (user_id, created_at) index.
          query
            .where('created_at', '<=', cursor!.createdAt)
            .where((eb) => eb.or([eb('created_at', '<', cursor!.createdAt), eb('id', '<', cursor!.id)])),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
      const { unread } = await ctx.db
        .selectFrom('account_events')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('unread'))
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        // Typed as the contract's Notice: a kind the database may hold and the contract lacks fails to compile.
        notices: page.map(
          (row): Notice => ({
            id: row.id,
            kind: row.kind,
            summary: summaryOf(row.details),
            createdAt: row.created_at,
            read: row.read_at !== null,
          }),
        ),
        nextCursor:
          rows.length > limit && last !== undefined
            ? encodeCursor({ createdAt: last.created_at, id: last.id })
            : null,
        unread: Number(unread),
      };
    },
  );

  app.post(
    markNoticesReadRoute.url,
    { preHandler: app.requireUser, schema: markNoticesReadRoute.schema },
    async (request) => {
      const userId = request.user!.id;
      const upToId = request.body?.upTo;
      let upTo: { created_at: string; id: string } | undefined;
      if (upToId !== undefined) {
        upTo = await ctx.db
          .selectFrom('account_events')
          .select(['created_at', 'id'])
          .where('id', '=', upToId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (upTo === undefined) throw new DialError('not_found', { details: 'no such notice of yours' });
      }
      const marked = await ctx.db
        .updateTable('account_events')
        .set({ read_at: ctx.now().toISOString() })
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .$if(upTo !== undefined, (query) =>
          // It and every older one, in the list's order: a notice that came after the list was shown stays
          // unread.
          query.where((eb) =>
            eb.or([
              eb('created_at', '<', upTo!.created_at),
              eb.and([eb('created_at', '=', upTo!.created_at), eb('id', '<=', upTo!.id)]),
            ]),
          ),
        )
        .returning('id')
        .execute();
      return { marked: marked.length };
    },
  );
}

/** The summary a notice was recorded with (`notifyOwner`'s `details`), or null. */
function summaryOf(details: string | null): string | null {
  if (details === null) return null;
  try {
    const parsed: unknown = JSON.parse(details);
    const summary = (parsed as { summary?: unknown } | null)?.summary;
    return typeof summary === 'string' ? summary : null;
  } catch {
    return null;
  }
}
