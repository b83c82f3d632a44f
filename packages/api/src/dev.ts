// Development only: the dev outbox and the local chain's faucet and JSON-RPC proxy (never in production).
import { type Static, Type } from 'typebox';
import { defineRoute } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';
import { ChannelSchema, HexString } from './shapes.js';

export const outboxRoute = defineRoute({
  ...ENDPOINTS.outbox,
  tags: ['development'],
  summary: 'The dev outbox: the latest 100 messages, newest first (not in production).',
  response: {
    200: Type.Object({
      messages: Type.Array(
        Type.Object({
          id: Type.String(),
          channel: ChannelSchema,
          to: Type.String(),
          subject: Type.String(),
          text: Type.String(),
          code: Type.Optional(Type.String()),
          createdAt: Type.String({ format: 'date-time' }),
        }),
      ),
    }),
  },
  errors: [],
});

export type OutboxMessages = Static<(typeof outboxRoute.schema.response)[200]>;

/** What `POST /api/dev/faucet` can give: the chain's ETH, or its test USDC. */
const FaucetAssetSchema = Type.Enum(['native', 'usdc']);

/** What the development faucet sends: 1 test ETH (`native`) or 100 test USDC (`usdc`). */
export type FaucetAsset = Static<typeof FaucetAssetSchema>;

export const faucetRoute = defineRoute({
  ...ENDPOINTS.faucet,
  tags: ['development'],
  summary:
    "Sends 1 test ETH (asset `native`, the default) or mints 100 test USDC (asset `usdc`) from the local chain's faucet to the signed-in user's wallet.",
  session: true,
  body: Type.Object({
    asset: Type.Optional(
      Type.Enum(['native', 'usdc'], { description: 'What to send; `native` by default.' }),
    ),
  }),
  response: {
    200: Type.Object({
      txHash: HexString({ pattern: '^0x[0-9a-f]{64}$' }),
      asset: FaucetAssetSchema,
      value: Type.String({
        description: 'What was sent, as a decimal string: wei for `native`, 6-decimal units for `usdc`.',
      }),
    }),
  },
  errors: ['not_found', 'wallet_not_found', 'chain_unavailable'],
});

export type FaucetRequest = Static<typeof faucetRoute.schema.body>;
export type FaucetSent = Static<(typeof faucetRoute.schema.response)[200]>;

const JsonRpcRequestSchema = Type.Object({
  jsonrpc: Type.Literal('2.0'),
  method: Type.String({ minLength: 1, maxLength: 100 }),
  params: Type.Optional(Type.Unknown()),
  id: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
});

export const localChainRoute = defineRoute({
  ...ENDPOINTS.localChain,
  tags: ['development'],
  summary: 'JSON-RPC, passed through to the local chain, for a signed-in user.',
  session: true,
  body: Type.Union([JsonRpcRequestSchema, Type.Array(JsonRpcRequestSchema, { minItems: 1, maxItems: 100 })]),
  response: { 200: Type.Unknown({ description: "The chain's JSON-RPC answer." }) },
  errors: ['chain_unavailable'],
});
