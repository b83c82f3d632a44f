// The server itself: liveness, readiness, and what the web app needs to know about it.
import { ONRAMP_ASSETS } from '@dial/core';
import { type Static, Type } from 'typebox';
import { defineRoute, errorField } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';
import { ChannelSchema, HexString, OkSchema } from './shapes.js';

export const healthRoute = defineRoute({
  ...ENDPOINTS.health,
  tags: ['system'],
  summary: 'Answers while the server runs.',
  response: { 200: OkSchema },
  errors: [],
});

const ReadinessFields = {
  database: Type.Enum(['ok', 'failed'], { description: 'Whether the database answered a trivial query.' }),
  redis: Type.Enum(['ok', 'failed', 'off'], {
    description: 'Whether Redis answered PING; `off` when `REDIS_URL` is not set.',
  }),
};

export const readyRoute = defineRoute({
  ...ENDPOINTS.ready,
  tags: ['system'],
  summary:
    'Answers 200 when the database and, when configured, Redis answer (each within 1 s), else 503 `not_ready` naming the part that failed.',
  response: {
    200: Type.Object({ ok: Type.Literal(true), ...ReadinessFields }),
    503: Type.Object({ ok: Type.Literal(false), ...ReadinessFields, error: errorField(['not_ready']) }),
  },
  errors: ['not_ready'],
});

export type Readiness = Static<(typeof readyRoute.schema.response)[200]>;

const OnrampOfferSchema = Type.Object({
  asset: Type.Enum([...ONRAMP_ASSETS]),
  network: Type.String({ description: "The provider's network name, e.g. `base`." }),
  networkName: Type.String({ description: 'e.g. `Arbitrum One`.' }),
  chainId: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The EVM chain the funds arrive on (31337 in the sandbox); null off EVM (BTC, SOL).',
  }),
});

const OnrampInfoSchema = Type.Object({
  provider: Type.Enum(['coinbase', 'sandbox']),
  offers: Type.Array(OnrampOfferSchema),
});

const LocalChainSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  rpcUrl: Type.String({ description: "Relative to this origin, e.g. '/api/dev/chain'." }),
  usdc: Type.Union([HexString({ pattern: '^0x[0-9a-fA-F]{40}$' }), Type.Null()], {
    description:
      "The local chain's test USDC (6 decimals); null when the chain was not started by this server.",
  }),
});

export const configRoute = defineRoute({
  ...ENDPOINTS.config,
  tags: ['system'],
  summary: 'What the web app needs to know about this server.',
  response: {
    200: Type.Object({
      environment: Type.Enum(['development', 'production', 'test']),
      localChain: Type.Union([LocalChainSchema, Type.Null()]),
      faucet: Type.Boolean(),
      channels: Type.Array(ChannelSchema, {
        description: 'The sign-in channels this server can deliver codes on.',
      }),
      rpcUrls: Type.Record(Type.String({ pattern: '^[1-9][0-9]*$' }), Type.String({ format: 'uri' }), {
        description:
          'The RPC URL to read a chain from instead of its public default, by chain id ' +
          '(`RPC_URL_<chainId>`); only the chains the operator set one for.',
      }),
      onramp: Type.Union([OnrampInfoSchema, Type.Null()], {
        description: 'Funding through the on-ramp; null when it is not offered.',
      }),
      walletConnect: Type.Union(
        [
          Type.Object({
            projectId: Type.String(),
            relayUrl: Type.String({ description: 'ws:// or wss://' }),
          }),
          Type.Null(),
        ],
        { description: 'Sign-in through WalletConnect; null when it is not offered.' },
      ),
    }),
  },
  errors: [],
});

/** `GET /api/config`: what the web app needs to know about this server. */
export type PublicConfig = Static<(typeof configRoute.schema.response)[200]>;
export type LocalChainConfig = Static<typeof LocalChainSchema>;
/** What can be bought where (`/api/config` → `onramp`). */
export type OnrampInfo = Static<typeof OnrampInfoSchema>;
export type OnrampOffer = Static<typeof OnrampOfferSchema>;
export type OnrampAssetCode = OnrampOffer['asset'];
