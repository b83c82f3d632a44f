import { walletEventsRoute } from '@dial/api';
import { hashToken, SESSION_COOKIE } from '../auth/sessions.js';
import type { TypedApp } from '../http/typedApp.js';
import type { WalletStreams } from './walletStreams.js';

/**
 * `GET /api/events`: the signed-in user's wallet events as server-sent events (`walletStreams.ts`). The
 * session cookie opens it (a GET: no `Origin` check, and the SameSite=Strict cookie is not sent from another
 * site); the stream ends with that session. Logged at `warn` only: a stream open for an hour is no request
 * worth two log lines each time a browser comes back to the page. The streams close with the app.
 */
export function registerEventRoutes(app: TypedApp, streams: WalletStreams): void {
  // Before the HTTP server closes: it waits for open answers, and a stream would never end by itself.
  app.addHook('preClose', async () => {
    await streams.close();
  });
  app.addHook('onClose', async () => {
    await streams.close();
  });
  const { maxPerUser, heartbeatMs, retryMs } = streams.settings;
  app.get(
    walletEventsRoute.url,
    {
      preHandler: app.requireUser,
      logLevel: 'warn',
      // A HEAD would open a stream nobody reads.
      exposeHeadRoute: false,
      schema: {
        ...walletEventsRoute.schema,
        description:
          'Each event: `id: <seq>` and `data: <WalletEvent JSON>`. Resumes after `Last-Event-ID` (or `after`); ' +
          'a `reset` event when it cannot (reload, then go on). ' +
          `A comment line every ${heartbeatMs / 1000} s; \`retry: ${retryMs}\`. ` +
          'Ends with an `end` event when the session ends, on any server. At most ' +
          `${maxPerUser} open per user on one server (429 \`too_many_streams\`).`,
      },
    },
    async (request, reply) => {
      const header = request.headers['last-event-id'];
      const out = await streams.open({
        userId: request.user!.id,
        // requireUser has read the cookie.
        tokenHash: hashToken(request.cookies[SESSION_COOKIE]!),
        resumeAfter: typeof header === 'string' ? header.trim() : request.query.after,
      });
      reply.raw.on('close', () => out.destroy());
      reply
        .code(200)
        .header('content-type', 'text/event-stream; charset=utf-8')
        // nginx buffers answers unless told not to.
        .header('x-accel-buffering', 'no');
      // A stream body: Fastify pipes it and serializes nothing.
      return reply.send(out as unknown as string);
    },
  );
}
