import { configRoute, healthRoute, localChainRoute, type OnrampInfo, readyRoute } from '@dial/api';
import { CHANNELS, DialError, LOCAL_CHAIN_ID, MINUTE_MS } from '@dial/core';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../appContext.js';
import { hasLocalChain } from '../config/index.js';
import { sweepExpiredRows } from '../db/sweepExpiredRows.js';
import type { TypedApp } from '../http/typedApp.js';
import type { RedisClient } from '../rateLimit/connectRedis.js';
import { checkReadiness, isReady } from './readiness.js';
import { runWhileOpen, startRepeatingTask } from './repeatingTask.js';

/** How often expired codes, sessions and rate-limit windows are deleted. */
const SWEEP_INTERVAL_MS = 10 * MINUTE_MS;

/**
 * `GET /api/health`, `GET /api/ready`, `GET /api/config` and `GET /api/openapi.json`; and, while the app is
 * open, the sweep of rows nothing will read again (`db/sweepExpiredRows.ts`) every 10 minutes.
 */
export function registerSystemRoutes(
  app: TypedApp,
  ctx: AppContext,
  options: {
    /** The on-ramp's provider and offers, as `GET /api/config` answers them; null when it is off. */
    onramp: OnrampInfo | null;
    /** The rate limits' Redis connection, checked by `GET /api/ready`; null without `REDIS_URL`. */
    redis: RedisClient | null;
  },
): void {
  // Load balancers and the web app's first screen call these often: no "request completed" line when they
  // succeed (refusals, warnings and errors are still logged), and their answers are serialized once.
  const health = onceSerialized(() => ({ ok: true as const }));
  app.get(
    healthRoute.url,
    {
      schema: healthRoute.schema,
      config: { accessLog: 'failures' },
    },
    (_request, reply) => {
      health(reply);
    },
  );

  // Liveness stays `/api/health` (no outside call); this is for load balancers deciding where to send traffic.
  app.get(
    readyRoute.url,
    {
      schema: readyRoute.schema,
      config: { accessLog: 'failures' },
    },
    async (request, reply) => {
      const readiness = await checkReadiness({
        db: ctx.db,
        redis: options.redis,
        onFailure: (part, error) =>
          request.log.warn(
            { part, reason: error instanceof Error ? error.message : String(error) },
            'readiness check failed',
          ),
      });
      if (isReady(readiness)) return { ok: true as const, ...readiness };
      const { error } = new DialError('not_ready').toBody();
      return reply.code(503).send({
        ok: false as const,
        ...readiness,
        error: { code: 'not_ready' as const, message: error.message },
      });
    },
  );

  // It depends on the configuration only, which does not change while the server runs.
  const localChain = hasLocalChain(ctx.config);
  const publicConfig = onceSerialized(() => ({
    environment: ctx.config.environment,
    localChain: localChain
      ? {
          id: LOCAL_CHAIN_ID,
          name: 'Local',
          // The web app sends the local chain's JSON-RPC through this server, same origin.
          rpcUrl: localChainRoute.url,
          usdc: ctx.config.localChain?.usdc ?? null,
        }
      : null,
    faucet: localChain,
    channels: CHANNELS.filter((channel) => ctx.transports[channel] !== undefined),
    rpcUrls: ctx.config.rpcUrls,
    walletConnect: ctx.config.walletConnect,
    onramp: options.onramp,
  }));
  app.get(
    configRoute.url,
    {
      schema: configRoute.schema,
      config: { accessLog: 'failures' },
    },
    (_request, reply) => {
      publicConfig(reply);
    },
  );

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  runWhileOpen(app, () =>
    startRepeatingTask(
      () => sweepExpiredRows(ctx.db, ctx.now(), ctx.config),
      SWEEP_INTERVAL_MS,
      (error) => app.log.warn({ err: error }, 'sweeping expired rows failed'),
    ),
  );
}

/**
 * Sends an answer that never changes: `body` serialized by the route's own 200 serializer (the same JSON its
 * schema gives) at the first request, then the same text to every later one.
 */
function onceSerialized(body: () => Record<string, unknown>): (reply: FastifyReply) => FastifyReply {
  let json: string | undefined;
  return (reply) => {
    json ??= reply.serializeInput(body(), '200') as string;
    return reply.type('application/json; charset=utf-8').send(json);
  };
}
