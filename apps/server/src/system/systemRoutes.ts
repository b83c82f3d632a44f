import { LOCAL_CHAIN_ID, ONRAMP_ASSETS } from '@dial/core';
import { Type } from 'typebox';
import type { AppContext } from '../appContext.js';
import { ChannelSchema, OkSchema } from '../http/schemas.js';
import type { TypedApp } from '../http/typedApp.js';
import type { AvailableOffer } from '../onramp/availableOffers.js';

/** Where the web app sends the local chain's JSON-RPC: through this server, same origin. */
export const LOCAL_CHAIN_PROXY_PATH = '/api/dev/chain';

/** `GET /api/health`, `GET /api/config` and `GET /api/openapi.json`. */
export function registerSystemRoutes(
  app: TypedApp,
  ctx: AppContext,
  options: {
    localChain: boolean;
    onramp: { provider: 'coinbase' | 'sandbox'; offers: readonly AvailableOffer[] } | null;
  },
): void {
  app.get(
    '/api/health',
    {
      schema: { tags: ['system'], summary: 'Answers while the server runs.', response: { 200: OkSchema } },
    },
    async () => ({ ok: true as const }),
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
