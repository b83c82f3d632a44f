import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../appContext.js';
import type { IdentityKind } from '../db/database.js';
import { notifyOwner } from '../notices/notifyOwner.js';
import { ensureDevice, rememberDevice } from './devices.js';
import { createSession, endSession, SESSION_COOKIE, setSessionCookie } from './sessions.js';
import type { User } from './users.js';

/**
 * The end of every sign-in, whatever proved it (a code, a wallet's signature): ends the session the request
 * came with (session fixation: a cookie is never adopted), starts a new one recording the browser and the
 * method, sets its cookie, and remembers the browser for the account. The owner hears of a sign-in from a
 * browser the account had not used, except on the sign-up that created the account.
 */
export async function startSignedInSession(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
  signedIn: { user: User; isNewUser: boolean; method: IdentityKind; identifier: string },
): Promise<void> {
  const now = ctx.now();
  const previous = request.cookies[SESSION_COOKIE];
  if (previous !== undefined) await endSession(ctx.db, previous);
  const deviceHash = ensureDevice(request, reply, ctx);
  // The method that proved this sign-in, when it is one of the account's (an embedded wallet's own key signs
  // in without being one): removing it ends the session.
  const identity = await ctx.db
    .selectFrom('identities')
    .select('id')
    .where('value', '=', signedIn.identifier)
    .where('user_id', '=', signedIn.user.id)
    .executeTakeFirst();
  const userAgent = request.headers['user-agent'];
  const { token, expiresAt } = await createSession(ctx.db, signedIn.user.id, ctx.config.session, now, {
    userAgent,
    method: signedIn.method,
    identityId: identity?.id ?? null,
    deviceHash,
  });
  setSessionCookie(reply, ctx, token, expiresAt);

  const { isNewDevice } = await rememberDevice(ctx.db, signedIn.user.id, deviceHash, now, userAgent);
  if (isNewDevice && !signedIn.isNewUser) {
    await notifyOwner(ctx, signedIn.user, 'new-browser-sign-in', request.log);
  }
}
