import { ENTRY_POINT_V08 } from '@dial/core';
import type { FastifyBaseLogger } from 'fastify';
import { decodeEventLog, type Hex, isAddressEqual, parseAbiItem, toEventSelector } from 'viem';
import type { AppContext } from '../appContext.js';
import { ChainReadError } from '../chain/chainReader.js';
import { recordActualCost, type SponsorshipRow } from './sponsorStore.js';

/** The EntryPoint's event for each operation it ran: its hash (topic 1), the fee it actually took. */
export const USER_OPERATION_EVENT = parseAbiItem(
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
);
const USER_OPERATION_EVENT_TOPIC = toEventSelector(USER_OPERATION_EVENT);

/** The most sponsorships one report reads from the chain (the rest at the next report). */
export const SETTLE_BATCH = 50;

/**
 * Reads from the chain what the sponsored operations among `rows` that have no actual cost yet cost, and
 * records it (in the rows given, and in the database). The bundler says which transaction carried each
 * operation (`eth_getUserOperationReceipt`); the cost is then read from that transaction's receipt through
 * the server's own chain reader (its RPC, the transaction checked against its hash), from the EntryPoint's
 * `UserOperationEvent` for the operation's hash: neither the browser nor the bundler's word for the cost is
 * believed. An operation not run yet (or never) stays without one; a read that fails is tried at the next
 * report.
 */
export async function settleSponsorships(
  ctx: AppContext,
  rows: SponsorshipRow[],
  log: FastifyBaseLogger,
): Promise<void> {
  const pending = rows.filter((row) => row.txHash === null).slice(0, SETTLE_BATCH);
  await Promise.all(
    pending.map(async (row) => {
      try {
        const settled = await readActualCost(ctx, row.chainId, row.userOpHash as Hex);
        if (settled === null) return;
        await recordActualCost(ctx.db, row.id, settled.actualCostWei, settled.txHash);
        row.actualCostWei = settled.actualCostWei;
        row.txHash = settled.txHash.toLowerCase();
      } catch (error) {
        log.warn(
          { chainId: row.chainId, reason: error instanceof Error ? error.message : String(error) },
          "a sponsorship's cost could not be read",
        );
      }
    }),
  );
}

/** The operation's cost and transaction as the chain shows them; `null` while it has not run. */
async function readActualCost(
  ctx: AppContext,
  chainId: number,
  userOpHash: Hex,
): Promise<{ actualCostWei: bigint; txHash: Hex } | null> {
  const bundlerUrl = ctx.config.sponsorship.bundlerUrls[chainId];
  if (bundlerUrl === undefined) return null;
  const response = await fetch(bundlerUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getUserOperationReceipt',
      params: [userOpHash],
    }),
    signal: AbortSignal.timeout(5_000),
  });
  const answer = (await response.json()) as { result?: { receipt?: { transactionHash?: unknown } } | null };
  const txHash = answer.result?.receipt?.transactionHash;
  if (typeof txHash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(txHash)) return null;

  const { receipt } = await ctx.chain.readTransaction(chainId, txHash as Hex);
  if (receipt === null) return null;
  for (const log of receipt.logs) {
    if (!isAddressEqual(log.address, ENTRY_POINT_V08)) continue;
    if (log.topics[0] !== USER_OPERATION_EVENT_TOPIC) continue;
    if (log.topics[1]?.toLowerCase() !== userOpHash.toLowerCase()) continue;
    const event = decodeEventLog({
      abi: [USER_OPERATION_EVENT],
      data: log.data,
      topics: log.topics as [Hex, ...Hex[]],
    });
    return { actualCostWei: event.args.actualGasCost, txHash: txHash as Hex };
  }
  throw new ChainReadError(`transaction ${txHash} has no UserOperationEvent for ${userOpHash}`);
}
