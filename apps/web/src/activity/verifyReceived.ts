import { erc20Abi, type Log, parseEventLogs } from 'viem';
import type { Transfer } from './activityApi';

/** What the chain says about a transaction: its receipt and, for a native transfer, the transaction. */
export interface ChainEvidence {
  receipt: { status: 'success' | 'reverted'; transactionHash: `0x${string}`; logs: readonly Log[] };
  transaction?: { hash: `0x${string}`; from: `0x${string}`; to: `0x${string}` | null; value: bigint };
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/**
 * Whether the chain shows the transfer a sender reported to us (the server only relays what the sender's
 * browser said). The transaction succeeded, and: native, it is from the sender to us with exactly that
 * value; USDC, it emitted a `Transfer` of the chain's USDC contract from the sender to us of exactly that
 * amount. Anything else, or a transfer that is not to `ownAddress`, is not verified.
 */
export function verifyReceived(
  transfer: Pick<Transfer, 'txHash' | 'from' | 'to' | 'asset' | 'amount'>,
  ownAddress: `0x${string}`,
  evidence: ChainEvidence,
  usdcAddress: `0x${string}` | undefined,
): VerifyResult {
  const same = (a: string | null | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();
  if (!same(transfer.to, ownAddress)) return { ok: false, reason: 'not to this wallet' };
  if (!same(evidence.receipt.transactionHash, transfer.txHash))
    return { ok: false, reason: 'another transaction' };
  if (evidence.receipt.status !== 'success') return { ok: false, reason: 'the transaction failed' };
  let amount: bigint;
  try {
    amount = BigInt(transfer.amount);
  } catch {
    return { ok: false, reason: 'not an amount' };
  }

  if (transfer.asset === 'native') {
    const tx = evidence.transaction;
    if (tx === undefined || !same(tx.hash, transfer.txHash)) return { ok: false, reason: 'no transaction' };
    if (!same(tx.from, transfer.from)) return { ok: false, reason: 'another sender' };
    if (!same(tx.to, ownAddress)) return { ok: false, reason: 'another recipient' };
    if (tx.value !== amount) return { ok: false, reason: 'another amount' };
    return { ok: true };
  }

  if (usdcAddress === undefined) return { ok: false, reason: 'no USDC on this chain' };
  const transfers = parseEventLogs({
    abi: erc20Abi,
    eventName: 'Transfer',
    logs: evidence.receipt.logs as Log[],
    strict: true,
  });
  const match = transfers.some(
    (log) =>
      same(log.address, usdcAddress) &&
      same(log.args.from, transfer.from) &&
      same(log.args.to, ownAddress) &&
      log.args.value === amount,
  );
  return match ? { ok: true } : { ok: false, reason: 'no matching USDC transfer' };
}
