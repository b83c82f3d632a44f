import {
  DialError,
  isDialError,
  isValidPhone,
  LOCAL_CHAIN_ID,
  parsePhone,
  SUPPORTED_CHAINS,
} from '@dial/core';
import { Type } from 'typebox';
import { getAddress, isAddress } from 'viem';
import type { AppContext } from '../appContext.js';
import { errorResponses } from '../http/schemas.js';
import type { TypedApp } from '../http/typedApp.js';
import { ACTIVITY_LIMITS } from './activityLimits.js';
import { listActivity, recordTransfer, setTransferStatus } from './transferStore.js';

/** The largest uint256: no amount on an EVM chain is bigger. */
const MAX_UINT256 = 2n ** 256n - 1n;
const DEFAULT_PAGE_SIZE = 50;

const AssetSchema = Type.Enum(['native', 'usdc'], {
  description: "`native`: the chain's own coin (wei); `usdc`: USDC (6-decimal units).",
});
const StatusSchema = Type.Enum(['pending', 'confirmed', 'failed']);

const ActivityItemSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    direction: Type.Enum(['sent', 'received'], {
      description: '`sent` by the signed-in user, or `received` by them from another Dial user.',
    }),
    chainId: Type.Integer(),
    txHash: Type.String({ description: 'The transaction hash, lower-case.' }),
    from: Type.String({ description: "The sender's wallet, EIP-55 checksummed." }),
    to: Type.String({ description: 'The recipient address, EIP-55 checksummed.' }),
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

/** Whether transfers on this chain can be recorded: a supported chain, or the local chain when it is on. */
function checkChain(ctx: AppContext, chainId: number): void {
  if (SUPPORTED_CHAINS.some((chain) => chain.id === chainId)) return;
  if (chainId === LOCAL_CHAIN_ID && ctx.config.localChain !== null) return;
  throw new DialError('unsupported_chain', { details: `chain ${chainId}` });
}

/** A mixed-case address must carry a valid EIP-55 checksum; stored checksummed. */
function readAddress(text: string): string {
  if (!isAddress(text, { strict: true }))
    throw new DialError('invalid_data', { details: 'address checksum' });
  return getAddress(text);
}

/** A positive uint256 in base units, without leading zeros. */
function readAmount(text: string): string {
  const amount = BigInt(text);
  if (amount <= 0n || amount > MAX_UINT256) {
    throw new DialError('invalid_data', { details: 'amount is 0 or over uint256' });
  }
  return amount.toString();
}

function readPhone(e164: string): string {
  try {
    if (isValidPhone(parsePhone(e164))) return e164;
  } catch (error) {
    if (!isDialError(error)) throw error;
  }
  throw new DialError('invalid_phone');
}

/**
 * The user's activity: the transactions they sent and the transfers they received from Dial users.
 *
 * The server does not watch the chains itself: the browser that sends a transaction records it here
 * (`POST /api/activity`, status `pending`) and reports its receipt's status (`PATCH /api/activity/:id`). So
 * the statuses are what the sender's browser saw, and transfers from outside Dial are not listed. A later
 * job can reconcile the rows against the chains (by `chain_id` and `tx_hash`) without changing this API.
 *
 * - `POST /api/activity` records a transfer sent from the user's own wallet; the recipient is the Dial user
 *   whose wallet the `to` address is. Recording the same (chain, hash) again is a retry: the same sender
 *   gets the stored row back (200), another user is refused (400 `invalid_data`). Limited per user.
 * - `PATCH /api/activity/:id` sets a pending transfer's final status, by its sender only.
 * - `GET /api/activity` lists it newest first, by pages; nothing in it names a person but by a masked number.
 */
export function registerActivityRoutes(app: TypedApp, ctx: AppContext): void {
  app.post(
    '/api/activity',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['activity'],
        summary: "Records a transaction sent from the signed-in user's wallet, as pending.",
        description:
          'The browser records what it sends and then reports the receipt (`PATCH /api/activity/{id}`). 201 ' +
          'with the new transfer; 200 with the stored one when the same user records the same chain and ' +
          'hash again (a retry; nothing changes); 400 `invalid_data` when another user recorded it. ' +
          `At most ${ACTIVITY_LIMITS.recordsPerUser.max} an hour per user.`,
        security: [{ session: [] }],
        body: Type.Object(
          {
            chainId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
            txHash: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: '0x and 64 hex digits.' }),
            to: Type.String({
              pattern: '^0x[0-9a-fA-F]{40}$',
              description: 'The recipient address; a mixed-case one must have a valid EIP-55 checksum.',
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
        response: {
          200: ActivityItemSchema,
          201: ActivityItemSchema,
          ...errorResponses(400, 401, 403, 404, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const userId = request.user!.id;
      const { body } = request;
      await ctx.rateLimiter.consume(`activity:user:${userId}`, ACTIVITY_LIMITS.recordsPerUser, ctx.now());
      checkChain(ctx, body.chainId);
      const { item, created } = await recordTransfer(
        ctx.db,
        {
          senderUserId: userId,
          chainId: body.chainId,
          txHash: body.txHash.toLowerCase(),
          to: readAddress(body.to),
          asset: body.asset,
          amount: readAmount(body.amount),
          recipientPhone: body.recipientPhone === undefined ? null : readPhone(body.recipientPhone),
        },
        ctx.now(),
      );
      return reply.code(created ? 201 : 200).send(item);
    },
  );

  app.patch(
    '/api/activity/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['activity'],
        summary: "Sets a pending transfer's final status from its receipt, by its sender only.",
        description:
          'Setting the status the transfer already has changes nothing (a retry); a final status never ' +
          "changes (400 `invalid_data`). Another user's transfer is 404 `not_found`.",
        security: [{ session: [] }],
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        body: Type.Object({ status: Type.Enum(['confirmed', 'failed']) }, { additionalProperties: false }),
        response: { 200: ActivityItemSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      setTransferStatus(
        ctx.db,
        { id: request.params.id, senderUserId: request.user!.id, status: request.body.status },
        ctx.now(),
      ),
  );

  app.get(
    '/api/activity',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['activity'],
        summary:
          "The signed-in user's activity, newest first: transfers they sent and those received from Dial users.",
        description:
          'Pages of `limit` items strictly older than `before`; pass `nextBefore` as `before` for the next ' +
          'page (`null`: no more). A page may hold more than `limit` items when several share the last ' +
          "item's millisecond, so that none is skipped.",
        security: [{ session: [] }],
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_PAGE_SIZE })),
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
              items: Type.Array(ActivityItemSchema),
              nextBefore: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
            },
            { additionalProperties: false },
          ),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) =>
      listActivity(ctx.db, request.user!.id, {
        limit: request.query.limit ?? DEFAULT_PAGE_SIZE,
        before: request.query.before,
      }),
  );
}
