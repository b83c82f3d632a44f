import { logoutRoute, meRoute } from '@dial/api';
import type { AppContext } from '../appContext.js';
import type { TypedApp } from '../http/typedApp.js';
import { clearSessionCookie, endSession, SESSION_COOKIE } from './sessions.js';

/** `GET /api/me` and `POST /api/auth/logout`. */
export function registerSessionRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    meRoute.url,
    {
      preHandler: app.requireUser,
      schema: meRoute.schema,
      // Every page load reads it: logged when it is refused (401), not each time it answers.
      config: { accessLog: 'failures' },
    },
    // Not async: on SQLite the whole request is answered without a turn of the microtask queue.
    (request, reply) => {
      reply.send({ user: request.user! });
    },
  );

  app.post(
    logoutRoute.url,
    {
      schema: logoutRoute.schema,
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token !== undefined) await endSession(ctx.db, token);
      clearSessionCookie(reply, ctx);
      return { ok: true as const };
    },
  );
}
