import { DialError, LOCAL_CHAIN_ID, ONRAMP_ASSETS } from '@dial/core';
import { Type } from 'typebox';
import type { AppContext } from '../appContext.js';
import { ChannelSchema, OkSchema } from '../http/schemas.js';
import type { TypedApp } from '../http/typedApp.js';
import type { AvailableOffer } from '../onramp/availableOffers.js';
import type { RedisClient } from '../rateLimit/connectRedis.js';
import { checkReadiness, isReady } from './readiness.js';

/** Where the web app sends the local chain's JSON-RPC: through this server, same origin. */
export const LOCAL_CHAIN_PROXY_PATH = '/api/dev/chain';

const ReadinessFields = {
  database: Type.Enum(['ok', 'failed'], { description: 'Whether the database answered a trivial query.' }),
  redis: Type.Enum(['ok', 'failed', 'off'], {
    description: 'Whether Redis answered PING; `off` when `REDIS_URL` is not set.',
  }),
};

/** `GET /api/health`, `GET /api/ready`, `GET /api/config` and `GET /api/openapi.json`. */
export function registerSystemRoutes(
  app: TypedApp,
  ctx: AppContext,
  options: {
    localChain: boolean;
    onramp: { provider: 'coinbase' | 'sandbox'; offers: readonly AvailableOffer[] } | null;
    /** The rate limits' Redis connection, checked by `GET /api/ready`; null without `REDIS_URL`. */
    redis: RedisClient | null;
  },
): void {
  app.get(
    '/api/health',
    {
      schema: { tags: ['system'], summary: 'Answers while the server runs.', response: { 200: OkSchema } },
    },
    async () => ({ ok: true as const }),
  );

  // Liveness stays `/api/health` (no outside call); this is for load balancers deciding where to send traffic.
  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['system'],
        summary:
          'Answers 200 when the database and, when configured, Redis answer (each within 1 s), else 503 `not_ready` naming the part that failed.',
        response: {
          200: Type.Object({ ok: Type.Literal(true), ...ReadinessFields }),
          503: Type.Object({
            ok: Type.Literal(false),
            ...ReadinessFields,
            error: Type.Object({ code: Type.Literal('not_ready'), message: Type.String() }),
          }),
        },
      },
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

  app.get(
    '/api/config',
    {
      schema: {
        tags: ['system'],
        summary: 'What the web app needs to know about this server.',
        response: {
          200: Type.Object({
            environment: Type.Enum(['development', 'production', 'test']),
            localChain: Type.Union([
              Type.Object({
                id: Type.Integer(),
                name: Type.String(),
                rpcUrl: Type.String(),
                usdc: Type.Union([Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' }), Type.Null()], {
                  description:
                    "The local chain's test USDC (6 decimals); null when the chain was not started by this server.",
                }),
              }),
              Type.Null(),
            ]),
            faucet: Type.Boolean(),
            channels: Type.Array(ChannelSchema, {
              description: 'The sign-in channels this server can deliver codes on.',
            }),
            rpcUrls: Type.Record(Type.String({ pattern: '^[1-9][0-9]*$' }), Type.String({ format: 'uri' }), {
              description:
                'The RPC URL to read a chain from instead of its public default, by chain id ' +
                '(`RPC_URL_<chainId>`); only the chains the operator set one for.',
            }),
            onramp: Type.Union(
              [
                Type.Object({
                  provider: Type.Enum(['coinbase', 'sandbox']),
                  offers: Type.Array(
                    Type.Object({
                      asset: Type.Enum([...ONRAMP_ASSETS]),
                      network: Type.String({ description: "The provider's network name, e.g. `base`." }),
                      networkName: Type.String(),
                      chainId: Type.Union([Type.Integer(), Type.Null()], {
                        description:
                          'The EVM chain the funds arrive on (31337 in the sandbox); null off EVM (BTC, SOL).',
                      }),
                    }),
                  ),
                }),
                Type.Null(),
              ],
              { description: 'Funding through the on-ramp; null when it is not offered.' },
            ),
          }),
        },
      },
    },
    async () => ({
      environment: ctx.config.environment,
      localChain: options.localChain
        ? {
            id: LOCAL_CHAIN_ID,
            name: 'Local',
            rpcUrl: LOCAL_CHAIN_PROXY_PATH,
            usdc: ctx.config.localChain?.usdc ?? null,
          }
        : null,
      faucet: options.localChain,
      channels: (['sms', 'email'] as const).filter((channel) => ctx.transports[channel] !== undefined),
      rpcUrls: ctx.config.rpcUrls,
      onramp:
        options.onramp === null
          ? null
          : { provider: options.onramp.provider, offers: [...options.onramp.offers] },
    }),
  );

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
