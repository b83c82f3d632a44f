import { Type } from 'typebox';
import type { AppContext } from '../appContext.js';
import { errorResponses, OkSchema, UserSchema } from '../http/schemas.js';
import type { TypedApp } from '../http/typedApp.js';
import { clearSessionCookie, endSession, SESSION_COOKIE } from './sessions.js';

/** `GET /api/me` and `POST /api/auth/logout`. */
export function registerSessionRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    '/api/me',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['session'],
        summary: 'The signed-in user.',
        security: [{ session: [] }],
        response: { 200: Type.Object({ user: UserSchema }), ...errorResponses(401) },
      },
    },
    async (request) => ({ user: request.user! }),
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['session'],
        summary: 'Signs out: ends the session on the server and clears the cookie. Succeeds when signed out.',
        response: { 200: OkSchema, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token !== undefined) await endSession(ctx.db, token);
      clearSessionCookie(reply, ctx);
      return { ok: true as const };
    },
  );
}
