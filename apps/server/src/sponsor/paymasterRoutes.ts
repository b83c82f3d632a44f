import { type PaymasterRequest, paymasterRoute } from '@dial/api';
import {
  DIAL_PAYMASTER_GAS,
  DialError,
  dialPaymasterHash,
  encodeDialPaymasterData,
  isDialError,
  SECOND_MS,
} from '@dial/core';
import type { FastifyReply } from 'fastify';
import { type Hex, numberToHex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { AppContext } from '../appContext.js';
import type { User } from '../auth/users.js';
import { rateKey } from '../config/rateKey.js';
import { retryAfterSeconds } from '../http/errorHandling.js';
import type { TypedApp } from '../http/typedApp.js';
import { type CheckedOperation, checkOperation } from './sponsoredOperation.js';
import { checkRoom, readUsage, reserveSponsorship, utcDay } from './sponsorStore.js';
import { maxCostWei, packUserOperation, readChainIdParam, userOperationHash } from './userOperation.js';

/** How long a paymaster signature is good for: long enough to sign and send, short enough to go stale. */
export const PAYMASTER_WINDOW_SECONDS = 10 * 60;
/** How far before now the window opens, for a chain whose clock is a little behind the server's. */
const PAYMASTER_WINDOW_SKEW_SECONDS = 60;

/**
 * The stub's signature: the size and shape of a real one (so gas estimation counts the check's real cost), by
 * no key (so the paymaster refuses it if ever sent).
 */
const DUMMY_SIGNATURE: Hex = `0x${'f'.repeat(31)}${'0'.repeat(33)}7${'a'.repeat(63)}1c`;

/** The paymaster fields of an ERC-7677 answer. */
type PaymasterResult = Record<string, unknown>;

/**
 * `POST /api/paymaster`: Dial's ERC-7677 paymaster service (JSON-RPC 2.0), for the session's own wallet.
 * `pm_getPaymasterStubData` checks the policy and the limits and answers the paymaster fields with a dummy
 * signature (`isFinal: false`, `sponsor: { name: OPERATOR_NAME }`); `pm_getPaymasterData` checks again,
 * records the sponsorship against the limits (the database's, shared by every server) and answers the fields
 * signed by `PAYMASTER_SIGNER_KEY` for exactly this operation, chain and paymaster, for 10 minutes. With
 * `PAYMASTER_URL_<chainId>` the same checks come first, then the call is forwarded to that service.
 * Refusals are JSON-RPC errors whose `data.code` is the catalogue's, with its HTTP status.
 */
export function registerPaymasterRoutes(
  app: TypedApp,
  ctx: AppContext,
  clientFor: (chainId: number) => PublicClient,
): void {
  const signerKey = ctx.config.sponsorship.signerKey;
  const signer = signerKey === null ? null : privateKeyToAccount(signerKey);

  app.post(
    paymasterRoute.url,
    { preHandler: app.requireUser, schema: paymasterRoute.schema },
    async (request, reply) => {
      const id = request.body.id ?? null;
      try {
        await ctx.rateLimiter.consume(
          rateKey('paymasterCallsPerUser', request.user!.id),
          ctx.config.rateLimits.paymasterCallsPerUser,
          ctx.now(),
        );
        const result = await answer(request.body, request.user!);
        return { jsonrpc: '2.0' as const, id, result };
      } catch (error) {
        // The catalogue's refusals as JSON-RPC errors; anything else is the server's failure (500).
        if (!isDialError(error) || error.code === 'internal_error') throw error;
        request.log.info({ errorCode: error.code, details: error.details }, 'sponsorship refused');
        return sendError(reply, id, error);
      }
    },
  );

  async function answer(body: PaymasterRequest, user: User): Promise<PaymasterResult> {
    const [userOp, entryPoint, chainIdText] = body.params;
    const chainId = readChainIdParam(chainIdText);
    const checked = await checkOperation(ctx, clientFor, user, userOp, entryPoint, chainId);
    const limits = {
      accountDailyLimit: ctx.config.sponsorship.accountDailyLimit,
      dailyCapWei: checked.dailyCapWei,
    };
    const now = ctx.now();
    if (body.method === 'pm_getPaymasterStubData') {
      // Nothing is recorded for a stub; a send that the limits would refuse is refused now, before any gas
      // estimate, with the reason.
      checkRoom(await readUsage(ctx.db, user.id, chainId, utcDay(now)), limits, 0n);
      if (checked.paymaster.kind === 'external') return forward(checked.paymaster.url, body);
      return {
        paymaster: checked.paymaster.address,
        paymasterData: encodeDialPaymasterData({ validUntil: 0, validAfter: 0 }, DUMMY_SIGNATURE),
        paymasterVerificationGasLimit: numberToHex(DIAL_PAYMASTER_GAS.paymasterVerificationGasLimit),
        paymasterPostOpGasLimit: numberToHex(DIAL_PAYMASTER_GAS.paymasterPostOpGasLimit),
        sponsor: { name: ctx.config.sponsorship.operatorName },
        isFinal: false,
      };
    }
    return checked.paymaster.kind === 'dial'
      ? signDialPaymasterData(checked, checked.paymaster.address, user, limits, now)
      : forwardPaymasterData(checked, checked.paymaster.url, body, user, limits, now);
  }

  async function signDialPaymasterData(
    checked: CheckedOperation,
    paymaster: `0x${string}`,
    user: User,
    limits: { accountDailyLimit: number; dailyCapWei: bigint },
    now: Date,
  ): Promise<PaymasterResult> {
    if (signer === null) throw new DialError('sponsor_unavailable', { details: 'no PAYMASTER_SIGNER_KEY' });
    const nowSeconds = Math.floor(now.getTime() / SECOND_MS);
    const window = {
      validUntil: nowSeconds + PAYMASTER_WINDOW_SECONDS,
      validAfter: Math.max(0, nowSeconds - PAYMASTER_WINDOW_SKEW_SECONDS),
    };
    const operation = {
      ...checked.operation,
      paymaster,
      ...DIAL_PAYMASTER_GAS,
      paymasterData: '0x' as Hex,
    };
    const hash = dialPaymasterHash(packUserOperation(operation), checked.chainId, paymaster, window);
    const signature = await signer.signMessage({ message: { raw: hash } });
    const paymasterData = encodeDialPaymasterData(window, signature);
    const signed = { ...operation, paymasterData };
    await reserveSponsorship(
      ctx.db,
      {
        userId: user.id,
        chainId: checked.chainId,
        sender: signed.sender,
        nonce: signed.nonce,
        userOpHash: userOperationHash(signed, checked.chainId, checked.delegate),
        paymaster,
        maxCostWei: maxCostWei(signed),
      },
      limits,
      now,
    );
    return {
      paymaster,
      paymasterData,
      paymasterVerificationGasLimit: numberToHex(DIAL_PAYMASTER_GAS.paymasterVerificationGasLimit),
      paymasterPostOpGasLimit: numberToHex(DIAL_PAYMASTER_GAS.paymasterPostOpGasLimit),
    };
  }

  async function forwardPaymasterData(
    checked: CheckedOperation,
    url: string,
    body: PaymasterRequest,
    user: User,
    limits: { accountDailyLimit: number; dailyCapWei: bigint },
    now: Date,
  ): Promise<PaymasterResult> {
    // Checked before asking the service, then recorded (and checked again, under the locks) with the fields
    // it gave: a refusal then throws its answer away, unused.
    checkRoom(
      await readUsage(ctx.db, user.id, checked.chainId, utcDay(now)),
      limits,
      maxCostWei(checked.operation),
    );
    const result = await forward(url, body);
    const fields = readPaymasterFields(result);
    const signed = { ...checked.operation, ...fields };
    await reserveSponsorship(
      ctx.db,
      {
        userId: user.id,
        chainId: checked.chainId,
        sender: signed.sender,
        nonce: signed.nonce,
        userOpHash: userOperationHash(signed, checked.chainId, checked.delegate),
        paymaster: fields.paymaster,
        maxCostWei: maxCostWei(signed),
      },
      limits,
      now,
    );
    return result;
  }
}

/** The paymaster fields of an external service's `pm_getPaymasterData` answer (EntryPoint v0.7+ form). */
function readPaymasterFields(result: PaymasterResult) {
  const { paymaster, paymasterData, paymasterVerificationGasLimit, paymasterPostOpGasLimit } = result;
  const isHex = (value: unknown): value is Hex => typeof value === 'string' && /^0x[0-9a-fA-F]*$/.test(value);
  if (
    !isHex(paymaster) ||
    paymaster.length !== 42 ||
    !isHex(paymasterData) ||
    !isHex(paymasterVerificationGasLimit) ||
    !isHex(paymasterPostOpGasLimit)
  ) {
    throw new DialError('chain_unavailable', {
      details: 'the paymaster service answered without its fields',
    });
  }
  return {
    paymaster,
    paymasterData,
    paymasterVerificationGasLimit: BigInt(paymasterVerificationGasLimit),
    paymasterPostOpGasLimit: BigInt(paymasterPostOpGasLimit),
  };
}

/** Forwards the JSON-RPC call to an external ERC-7677 service and returns its `result`. */
async function forward(url: string, body: PaymasterRequest): Promise<PaymasterResult> {
  let answer: { result?: unknown; error?: { message?: unknown } };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: body.method, params: body.params }),
      signal: AbortSignal.timeout(15_000),
    });
    answer = (await response.json()) as typeof answer;
  } catch (error) {
    // Not the error itself: the URL may hold the service's API key.
    throw new DialError('chain_unavailable', {
      details: `the paymaster service failed: ${error instanceof Error ? error.name : 'error'}`,
    });
  }
  if (answer.error !== undefined || typeof answer.result !== 'object' || answer.result === null) {
    throw new DialError('sponsor_unavailable', {
      message: 'The paymaster service did not agree to pay this fee. Send with ETH for the fee instead.',
      details: `paymaster service: ${String(answer.error?.message ?? 'no result')}`,
    });
  }
  return answer.result as PaymasterResult;
}

/** A JSON-RPC error with the catalogue's code in `data.code` and its HTTP status. */
function sendError(reply: FastifyReply, id: string | number | null, error: DialError) {
  const retryAfter = retryAfterSeconds(error);
  if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  return reply.code(error.status).send({
    jsonrpc: '2.0',
    id,
    error: { code: jsonRpcCode(error), message: error.message, data: { code: error.code } },
  });
}

/** EIP-1474's codes: invalid params, limit exceeded, resource unavailable; else a server-defined one. */
function jsonRpcCode(error: DialError): number {
  if (error.code === 'invalid_data') return -32602;
  if (error.status === 429) return -32005;
  if (error.status === 503) return -32002;
  return -32000;
}
