// The user's activity: transfers they sent and received, each checked by the server on its chain.
import { DEFAULT_ACTIVITY_PAGE_SIZE, MAX_ACTIVITY_PAGE_SIZE } from '@dial/core';
import { type Static, Type } from 'typebox';
import { defineRoute, RATE_LIMIT_ERRORS } from './defineRoute.js';
import { HexString } from './shapes.js';

export { DEFAULT_ACTIVITY_PAGE_SIZE };

const AssetSchema = Type.Enum(['native', 'usdc'], {
  description: "`native`: the chain's own coin (wei); `usdc`: USDC (6-decimal units).",
});
const StatusSchema = Type.Enum(['pending', 'confirmed', 'failed'], {
  description:
    '`pending` until the server has read the transaction mined on its chain, then `confirmed` or `failed` ' +
    "from its receipt. Never what a browser reported: the server reads it through the chain's RPC.",
});
/** Transfer ids are lower-case UUIDs (`crypto.randomUUID()`); anything else never reaches SQL. */
const TransferIdSchema = Type.String({
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  maxLength: 36,
});

export const TransferSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    direction: Type.Enum(['sent', 'received'], {
      description:
        '`sent` by the signed-in user, or `received` by them from another Dial user (listed only once the ' +
        "server has read it on the chain: from that user's wallet, to this one, with this amount).",
    }),
    chainId: Type.Integer(),
    txHash: HexString({ description: 'The transaction hash, lower-case.' }),
    from: HexString({ description: "The sender's wallet, EIP-55 checksummed." }),
    to: HexString({ description: 'The recipient address, EIP-55 checksummed.' }),
    asset: AssetSchema,
    amount: Type.String({ description: 'Base units, a decimal string.' }),
    status: StatusSchema,
    createdAt: Type.String({ format: 'date-time' }),
    counterparty: Type.Object(
      {
        phone: Type.Union([Type.String(), Type.Null()], {
          description:
            "The other side's phone number masked to its last four digits (`*3456`): for a sent transfer the " +
            "recipient's, for a received one the sender's; `null` when there is none.",
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** A transfer in the activity list. */
export type Transfer = Static<typeof TransferSchema>;

export const recordTransferRoute = defineRoute({
  method: 'POST',
  url: '/api/activity',
  tags: ['activity'],
  summary: "Records a transaction sent from the signed-in user's wallet, and checks it on the chain.",
  session: true,
  body: Type.Object(
    {
      chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
      txHash: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: '0x and 64 hex digits.' }),
      to: Type.String({
        pattern: '^0x[0-9a-fA-F]{40}$',
        description:
          'The recipient address (for USDC too, not the token contract); a mixed-case one must have a valid EIP-55 checksum.',
      }),
      asset: AssetSchema,
      amount: Type.String({
        pattern: '^[0-9]{1,78}$',
        description: 'Base units as a decimal string, more than 0 and at most 2^256 - 1.',
      }),
      recipientPhone: Type.Optional(
        Type.String({
          pattern: '^\\+[1-9][0-9]{1,14}$',
          description: 'E.164, when the recipient was chosen by phone number.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  response: { 200: TransferSchema, 201: TransferSchema },
  errors: [
    'invalid_phone',
    'unsupported_chain',
    'not_your_transaction',
    'transfer_mismatch',
    'not_found',
    'wallet_not_found',
    ...RATE_LIMIT_ERRORS,
  ],
});

export type RecordTransferRequest = Static<typeof recordTransferRoute.schema.body>;

export const checkTransferRoute = defineRoute({
  method: 'PATCH',
  url: '/api/activity/:id',
  tags: ['activity'],
  summary: 'Asks the server to check a pending transfer on its chain now, by its sender only.',
  session: true,
  params: Type.Object({ id: TransferIdSchema }),
  body: Type.Object(
    { status: Type.Optional(Type.Enum(['confirmed', 'failed'], { description: 'Ignored.' })) },
    { additionalProperties: false },
  ),
  response: { 200: TransferSchema },
  errors: ['not_found', 'not_your_transaction', 'transfer_mismatch', ...RATE_LIMIT_ERRORS],
});

export const listActivityRoute = defineRoute({
  method: 'GET',
  url: '/api/activity',
  tags: ['activity'],
  summary:
    "The signed-in user's activity, newest first: transfers they sent and those received from Dial users.",
  session: true,
  querystring: Type.Object(
    {
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: MAX_ACTIVITY_PAGE_SIZE, default: DEFAULT_ACTIVITY_PAGE_SIZE }),
      ),
      before: Type.Optional(
        Type.String({
          pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
          description: 'A `createdAt` (ISO 8601 in UTC with milliseconds): only older transfers.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object(
      {
        items: Type.Array(TransferSchema),
        nextBefore: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      },
      { additionalProperties: false },
    ),
  },
  errors: [],
});

export type ActivityQuery = Static<typeof listActivityRoute.schema.querystring>;
/** A page of activity; pass `nextBefore` as `before` for the next (older) one, `null` when there is none. */
export type ActivityPage = Static<(typeof listActivityRoute.schema.response)[200]>;
