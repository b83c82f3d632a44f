import {
  checkTransferRoute,
  DEFAULT_ACTIVITY_PAGE_SIZE,
  listActivityRoute,
  recordTransferRoute,
} from '@dial/api';
import { DialError, LOCAL_CHAIN_ID, readAddress, readInternationalPhone, SUPPORTED_CHAINS } from '@dial/core';
import type { AppContext } from '../appContext.js';
import { rateKey } from '../config/rateKey.js';
import { decodeCursor } from '../db/pageCursor.js';
import { publishWalletEvent } from '../events/walletEvents.js';
import type { TypedApp } from '../http/typedApp.js';
import { runWhileOpen } from '../system/repeatingTask.js';
import { listActivity } from './activityList.js';
import { type CheckOutcome, checkTransfer } from './transferChecks.js';
import { logOutcome, startTransferCheckTimer, TRANSFER_CHECK_INTERVAL_MS } from './transferCheckTimer.js';
import { loadSentTransfer, recordTransfer } from './transferStore.js';

/** The largest uint256: no amount on an EVM chain is bigger. */
const MAX_UINT256 = 2n ** 256n - 1n;
const DEFAULT_PAGE_SIZE = DEFAULT_ACTIVITY_PAGE_SIZE;

/** Whether transfers on this chain can be recorded: a supported chain, or the local chain when it is on. */
function checkChain(ctx: AppContext, chainId: number): void {
  if (SUPPORTED_CHAINS.some((chain) => chain.id === chainId)) return;
  if (chainId === LOCAL_CHAIN_ID && ctx.config.localChain !== null) return;
  throw new DialError('unsupported_chain', { details: `chain ${chainId}` });
}

/** A USDC transfer can only be checked on a chain whose USDC contract the server knows. */
function checkAsset(ctx: AppContext, chainId: number, asset: 'native' | 'usdc'): void {
  if (asset === 'usdc' && ctx.chain.usdcAddress(chainId) === undefined) {
    throw new DialError('unsupported_chain', {
      message: 'USDC is not available on that network. Pick another network or asset.',
      details: `no USDC on chain ${chainId}`,
    });
  }
}

/** The error that tells the sender why the chain made their record go. */
function droppedError(outcome: Extract<CheckOutcome, { status: 'dropped' }>): DialError {
  if (outcome.reason === 'not_sender') {
    return new DialError('not_your_transaction', { details: outcome.details });
  }
  if (outcome.reason === 'mismatch') return new DialError('transfer_mismatch', { details: outcome.details });
  return new DialError('not_found', {
    message: 'The network does not show this transaction, so it was removed from your activity.',
    details: outcome.details,
  });
}

/** A positive uint256 in base units, without leading zeros. */
function readAmount(text: string): string {
  const amount = BigInt(text);
  if (amount <= 0n || amount > MAX_UINT256) {
    throw new DialError('invalid_data', { details: 'amount is 0 or over uint256' });
  }
  return amount.toString();
}

/**
 * The user's activity: the transactions they sent and the transfers they received from Dial users, each
 * checked by the server on its chain.
 *
 * The browser that sends a transaction records it here (`POST /api/activity`); from then on nothing the
 * browser says about it is believed. The server reads the transaction and its receipt through the chain's
 * RPC (`RPC_URL_<chainId>`, the chain's public RPC, or the local chain): it must be from the sender's
 * registered wallet, to `to`, of `amount` (the value, or the USDC contract's `Transfer` log), and the
 * receipt gives `confirmed` or `failed`. A record the chain contradicts is deleted; one the chain does not
 * show is checked again with backoff (`transferChecks.ts`, a schedule kept in the database that every
 * server runs), and deleted once the RPC has kept saying it does not know it for an hour. The recipient
 * sees a transfer only once it is proven.
 *
 * - `POST /api/activity` records a transfer and checks it at once; refused when the chain already shows it
 *   from another wallet (`not_your_transaction`) or as another transfer (`transfer_mismatch`). Recording
 *   the same (chain, hash) again is a retry: the same sender gets the stored row back (200). Limited per
 *   user.
 * - `PATCH /api/activity/:id` asks for a check now, by its sender only; the answer is what the chain says.
 * - `GET /api/activity` lists it newest first, by pages, with the user's credits (`activityList.ts`);
 *   nothing in it names a person but by a masked number.
 *
 * And, while the app is open, this server's share of the due chain checks every `transferCheckIntervalMs`
 * (`transferCheckTimer.ts`).
 */
export function registerActivityRoutes(
  app: TypedApp,
  ctx: AppContext,
  transferCheckIntervalMs = TRANSFER_CHECK_INTERVAL_MS,
): void {
  // This server's share of the transfers' chain checks, while it is open.
  runWhileOpen(app, () => startTransferCheckTimer(ctx, app.log, transferCheckIntervalMs));

  app.post(
    recordTransferRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...recordTransferRoute.schema,
        description:
          'The server reads the transaction from its chain at once: 201 with the new transfer, `confirmed` or ' +
          '`failed` when it is mined and matches, `pending` while it is not mined or not visible yet (checked ' +
          'again later, with backoff). 200 with the stored one when the same user records the same chain and ' +
          'hash again (a retry; nothing changes). 403 `not_your_transaction` when the chain shows it sent ' +
          'from another wallet (or another account already proved it); 400 `transfer_mismatch` when it shows ' +
          'another recipient, amount or asset; nothing is recorded then. ' +
          `At most ${ctx.config.rateLimits.activityRecordsPerUser.max} an hour per user.`,
      },
    },
    async (request, reply) => {
      const userId = request.user!.id;
      const { body } = request;
      await ctx.rateLimiter.consume(
        rateKey('activityRecordsPerUser', userId),
        ctx.config.rateLimits.activityRecordsPerUser,
        ctx.now(),
      );
      checkChain(ctx, body.chainId);
      checkAsset(ctx, body.chainId, body.asset);
      const { item, created } = await recordTransfer(
        ctx.db,
        {
          senderUserId: userId,
          chainId: body.chainId,
          txHash: body.txHash.toLowerCase(),
          to: readAddress(body.to),
          asset: body.asset,
          amount: readAmount(body.amount),
          recipientPhone:
            body.recipientPhone === undefined ? null : readInternationalPhone(body.recipientPhone),
        },
        ctx.now(),
      );
      if (!created) return reply.code(200).send(item);
      await publishWalletEvent(ctx, userId, {
        kind: 'activity',
        entryId: item.id,
        chainId: item.chainId,
        change: 'added',
        direction: 'sent',
      });
      const outcome = await checkTransfer(ctx, item.id, 'due');
      logOutcome(request.log, item.id, outcome);
      if (outcome.status === 'dropped') throw droppedError(outcome);
      return reply.code(201).send(await loadSentTransfer(ctx.db, item.id, userId));
    },
  );

  app.patch(
    checkTransferRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...checkTransferRoute.schema,
        description:
          'A hint, nothing more: the status comes from the chain, never from the body (a `status` in it, ' +
          'which older clients send, is ignored). 200 with the transfer as the chain now shows it (`pending` ' +
          'when it is not mined yet or the chain could not be read: it is checked again later). When the ' +
          'check finds the record contradicted it is deleted and the answer says why: 403 ' +
          "`not_your_transaction`, 400 `transfer_mismatch`, 404 `not_found`. Another user's transfer is 404 " +
          '`not_found`. A check counts against a per-user limit of ' +
          `${ctx.config.rateLimits.activityChecksPerUser.max} an hour; a settled transfer is answered without one.`,
      },
    },
    async (request) => {
      const userId = request.user!.id;
      const { id } = request.params;
      const item = await loadSentTransfer(ctx.db, id, userId);
      if (item.status !== 'pending') return item;
      await ctx.rateLimiter.consume(
        rateKey('activityChecksPerUser', userId),
        ctx.config.rateLimits.activityChecksPerUser,
        ctx.now(),
      );
      const outcome = await checkTransfer(ctx, id, 'hint');
      logOutcome(request.log, id, outcome);
      if (outcome.status === 'dropped') throw droppedError(outcome);
      return loadSentTransfer(ctx.db, id, userId);
    },
  );

  app.get(
    listActivityRoute.url,
    {
      preHandler: app.requireUser,
      schema: {
        ...listActivityRoute.schema,
        description:
          'Dial transfers (a received one only once the server has proven it on the chain: `confirmed` or ' +
          '`failed`) merged with the credits the server read on the chain or sent itself (faucet, on-ramp, ' +
          'outside transfers, balance changes), newest first. Pages of `limit` entries; pass `nextCursor` as ' +
          '`cursor` for the next (older) page (`null`: no more). No entry is skipped or repeated across pages, ' +
          'however many share a time. `chainId` keeps one network. 400 `invalid_data` for a cursor this server ' +
          'did not give.',
      },
    },
    async (request) =>
      listActivity(ctx.db, request.user!.id, {
        limit: request.query.limit ?? DEFAULT_PAGE_SIZE,
        cursor: request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor),
        chainId: request.query.chainId,
      }),
  );
}
