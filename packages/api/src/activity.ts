// The user's activity: transfers they sent and received, each checked by the server on its chain, and the
// money that reached their wallet otherwise (the test faucet, an on-ramp, any outside address).
import { DEFAULT_ACTIVITY_PAGE_SIZE, MAX_ACTIVITY_PAGE_SIZE } from '@dial/core';
import { type Static, Type } from 'typebox';
import { defineRoute, RATE_LIMIT_ERRORS } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';
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

const ActivitySourceSchema = Type.Enum(['dial', 'faucet', 'onramp', 'outside', 'balance'], {
  description:
    '`dial`: a transfer between Dial users (sent by this user, or received from another one once proven); ' +
    "`faucet`: test funds from the local chain's faucet; `onramp`: a purchase or deposit through the on-ramp; " +
    "`outside`: USDC (its `Transfer` log) or native value from any other address, found by the server's chain " +
    'watcher; `balance`: a rise of the native balance that no known transaction explains, seen in `blockNumber` ' +
    '(on a chain whose RPC cannot list transactions; it has no `txHash` nor `from`).',
});

export const ActivityEntrySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    source: ActivitySourceSchema,
    direction: Type.Enum(['sent', 'received'], {
      description: '`sent` by the signed-in user (only `dial`), else `received` by them.',
    }),
    chainId: Type.Integer(),
    txHash: Type.Union([HexString(), Type.Null()], {
      description: 'The transaction hash, lower-case; `null` only for a `balance` entry.',
    }),
    blockNumber: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description:
        'The block the server read it in (a credit), or the block a `balance` change was seen in; `null` for ' +
        'a `dial` transfer and a credit still `pending`.',
    }),
    from: Type.Union([HexString(), Type.Null()], {
      description:
        'The sending address, EIP-55 checksummed (the zero address for a mint); `null` for `balance`.',
    }),
    to: HexString({
      description: "The recipient address, EIP-55 checksummed: for a credit, the user's wallet.",
    }),
    asset: AssetSchema,
    amount: Type.String({ description: 'Base units, a decimal string.' }),
    status: StatusSchema,
    createdAt: Type.String({ format: 'date-time' }),
    counterparty: Type.Object(
      {
        phone: Type.Union([Type.String(), Type.Null()], {
          description:
            "For a `dial` transfer the other side's number masked to its last four digits (`*3456`); `null` when " +
            'there is none, and always for the other sources.',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** One line of the activity list: a Dial transfer or a credit, with its source. */
export type ActivityEntry = Static<typeof ActivityEntrySchema>;
/** Where an activity entry came from. */
export type ActivitySource = ActivityEntry['source'];

/**
 * A Dial transfer, as `POST /api/activity` and `PATCH /api/activity/:id` answer it: an activity entry with
 * `source` `dial` (its `txHash` and `from` always set, `blockNumber` `null`).
 */
export const TransferSchema = ActivityEntrySchema;

/** A Dial transfer in the activity list (`source: 'dial'`). */
export type Transfer = ActivityEntry;

export const recordTransferRoute = defineRoute({
  ...ENDPOINTS.recordTransfer,
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
  ...ENDPOINTS.checkTransfer,
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

/** The opaque cursor of `GET /api/activity`: base64url, as the server gave it in `nextCursor`. */
const CursorSchema = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,200}$',
  description: 'A `nextCursor` from the previous page, as it was given.',
});

export const listActivityRoute = defineRoute({
  ...ENDPOINTS.listActivity,
  tags: ['activity'],
  summary:
    "The signed-in user's activity, newest first: Dial transfers sent and received, and the money that reached " +
    'their wallet otherwise (faucet, on-ramp, outside transfers, balance changes).',
  session: true,
  querystring: Type.Object(
    {
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: MAX_ACTIVITY_PAGE_SIZE, default: DEFAULT_ACTIVITY_PAGE_SIZE }),
      ),
      cursor: Type.Optional(CursorSchema),
      chainId: Type.Optional(
        Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Only this network.' }),
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object(
      {
        items: Type.Array(ActivityEntrySchema),
        nextCursor: Type.Union([Type.String(), Type.Null()]),
      },
      { additionalProperties: false },
    ),
  },
  errors: [],
});

export type ActivityQuery = Static<typeof listActivityRoute.schema.querystring>;
/** A page of activity; pass `nextCursor` as `cursor` for the next (older) one, `null` when there is none. */
export type ActivityPage = Static<(typeof listActivityRoute.schema.response)[200]>;
