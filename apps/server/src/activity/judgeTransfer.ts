import { type Address, decodeEventLog, decodeFunctionData, erc20Abi, type Hex } from 'viem';
import type { TransactionEvidence } from '../chain/chainReader.js';
import type { TransferAsset } from '../db/database.js';

/** A recorded transfer, as the sender's browser described it, with the sender's registered wallet. */
export interface TransferClaim {
  txHash: string;
  /** The sender's registered wallet. */
  from: string;
  to: string;
  asset: TransferAsset;
  /** Base units, a decimal string. */
  amount: string;
}

/**
 * What the chain says about a claim:
 * - `confirmed` / `failed`: mined, from the sender's wallet, to the recipient with the amount; the receipt's
 *   status says which.
 * - `pending`: the transaction matches but is not mined yet.
 * - `missing`: the node does not know the transaction.
 * - `not_sender`: the transaction was sent from another wallet: the claimer is not its sender.
 * - `mismatch`: from the sender, but not the transfer described (another recipient, amount or asset).
 */
export type Verdict =
  | { kind: 'confirmed' | 'failed' | 'pending' | 'missing' | 'not_sender' }
  | { kind: 'mismatch'; reason: string };

const same = (a: string | null | undefined, b: string | undefined) =>
  a !== null && a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();

/**
 * Judges a recorded transfer against what the chain shows. Native: the transaction goes to `to` with value
 * `amount`. USDC: it is a call of the chain's USDC contract, and when it succeeded its receipt holds a
 * `Transfer` log of that contract from the sender to `to` of `amount` (a reverted one logged nothing, so its
 * call data must be `transfer(to, amount)` instead). Nothing of what the sender's browser reported about
 * the outcome is used.
 *
 * @param usdc - The chain's USDC contract; `undefined` when it has none (a USDC claim is then a mismatch).
 */
export function judgeTransfer(
  claim: TransferClaim,
  evidence: TransactionEvidence,
  usdc: Address | undefined,
): Verdict {
  const { transaction, receipt } = evidence;
  if (transaction === null) {
    // A receipt without the transaction: the node is between two states; read again rather than judge.
    return { kind: receipt === null ? 'missing' : 'pending' };
  }
  if (!transaction.supported) {
    return { kind: 'mismatch', reason: 'a transaction type a Dial wallet does not send' };
  }
  if (!same(transaction.from, claim.from)) return { kind: 'not_sender' };
  const amount = BigInt(claim.amount);

  if (claim.asset === 'native') {
    if (!same(transaction.to, claim.to)) return { kind: 'mismatch', reason: 'another recipient' };
    if (transaction.value !== amount) return { kind: 'mismatch', reason: 'another amount' };
    if (receipt === null) return { kind: 'pending' };
    return { kind: receipt.status === 'success' ? 'confirmed' : 'failed' };
  }

  if (usdc === undefined) return { kind: 'mismatch', reason: 'no USDC on this chain' };
  if (!same(transaction.to, usdc)) return { kind: 'mismatch', reason: 'not a call of the USDC contract' };
  if (receipt === null) return { kind: 'pending' };
  if (receipt.status === 'reverted') {
    // A reverted call moved nothing and logged nothing: what it would have moved is in its call data.
    return isTransferCall(transaction.input, claim.to, amount)
      ? { kind: 'failed' }
      : { kind: 'mismatch', reason: 'not transfer(to, amount)' };
  }
  const moved = receipt.logs.some((log) => {
    if (!same(log.address, usdc)) return false;
    try {
      const event = decodeEventLog({
        abi: erc20Abi,
        eventName: 'Transfer',
        topics: log.topics as [Hex, ...Hex[]],
        data: log.data,
        strict: true,
      });
      return (
        same(event.args.from, claim.from) && same(event.args.to, claim.to) && event.args.value === amount
      );
    } catch {
      // Another event of the contract (Approval, …), or not a valid Transfer.
      return false;
    }
  });
  return moved ? { kind: 'confirmed' } : { kind: 'mismatch', reason: 'no matching USDC Transfer log' };
}

/** Whether call data is exactly ERC-20 `transfer(to, amount)`. */
function isTransferCall(input: Hex, to: string, amount: bigint): boolean {
  try {
    const call = decodeFunctionData({ abi: erc20Abi, data: input });
    return call.functionName === 'transfer' && same(call.args[0], to) && call.args[1] === amount;
  } catch {
    return false;
  }
}
