import {
  endOtherSessionsRoute,
  endSessionRoute,
  listSessionsRoute,
  logoutEverywhereRoute,
  type StepUpProof,
} from '@dial/api';
import type { FastifyRequest } from 'fastify';
import { answerChange, changeAccount } from '../accountChanges/changeAccount.js';
import type { AppContext } from '../appContext.js';
import { describeUserAgent } from '../auth/describeUserAgent.js';
import { sessionHashOf } from '../auth/reauthentication.js';
import { clearSessionCookie } from '../auth/sessions.js';
import { sessionIsLive } from '../db/sessionLiveness.js';
import type { TypedApp } from '../http/typedApp.js';

/**
 * The signed-in person's sessions: the live ones listed, and ending one, all others, or all of them (sign out
 * everywhere). Ending another session is a change to the account ({@link changeAccount}: at once with the
 * key's proof, else after the cooling-off period); ending this one is signing out. Ending a session deletes its row, and every server reads the session from the database on
 * each request (`requireUser`), so an ended session is refused by every server at its next request. A
 * session is named by its public id, never its token or the token's hash; another user's id answers
 * `404 not_found`, as one that does not exist.
 */
export function registerAccountSessionRoutes(app: TypedApp, ctx: AppContext): void {
  /** Ends every other session of the account: at once with the key's proof, else asked for (`pending`). */
  const endOtherSessions = (request: FastifyRequest, proof: StepUpProof | undefined) =>
    changeAccount(ctx, request, { action: 'end-sessions', id: 'all-others' }, proof);

  app.get(
    listSessionsRoute.url,
    { preHandler: app.requireUser, schema: listSessionsRoute.schema },
    async (request) => {
      const current = sessionHashOf(request);
      const rows = await ctx.db
        .selectFrom('sessions')
        .select(['id', 'token_hash', 'user_agent', 'method', 'created_at', 'last_seen_at'])
        .where('user_id', '=', request.user!.id)
        .where(sessionIsLive(ctx.config.session.idleHours, ctx.now()))
        .orderBy('last_seen_at', 'desc')
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
      return {
        sessions: rows.map((row) => ({
          id: row.id,
          device: describeUserAgent(row.user_agent),
          method: row.method,
          createdAt: row.created_at,
          lastSeenAt: row.last_seen_at,
          current: row.token_hash === current,
        })),
      };
    },
  );

  app.post(
    endSessionRoute.url,
    { preHandler: app.requireUser, schema: endSessionRoute.schema },
    async (request, reply) => {
      const own = await ctx.db
        .selectFrom('sessions')
        .select('id')
        .where('token_hash', '=', sessionHashOf(request))
        .executeTakeFirst();
      if (own?.id === request.params.id) {
        // Ending this very session is signing out: nothing to prove.
        await ctx.db.deleteFrom('sessions').where('id', '=', own.id).execute();
        clearSessionCookie(reply, ctx);
        return { ok: true as const };
      }
      const outcome = await changeAccount(
        ctx,
        request,
        { action: 'end-sessions', id: request.params.id },
        request.body.proof,
      );
      return answerChange(reply, outcome, () => ({ ok: true as const }));
    },
  );

  app.post(
    endOtherSessionsRoute.url,
    { preHandler: app.requireUser, schema: endOtherSessionsRoute.schema },
    async (request, reply) => {
      const outcome = await endOtherSessions(request, request.body.proof);
      return answerChange(reply, outcome, (applied) => applied);
    },
  );

  app.post(
    logoutEverywhereRoute.url,
    { preHandler: app.requireUser, schema: logoutEverywhereRoute.schema },
    async (request, reply) => {
      // The others first (asked for, or ended with the proof), then this one: signing out needs no proof.
      const outcome = await endOtherSessions(request, request.body.proof);
      await ctx.db.deleteFrom('sessions').where('token_hash', '=', sessionHashOf(request)).execute();
      clearSessionCookie(reply, ctx);
      return answerChange(reply, outcome, () => ({ ok: true as const }));
    },
  );
}
