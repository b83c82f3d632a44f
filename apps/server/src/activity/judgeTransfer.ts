import { type AccountCall, decodeAccountCalls, ENTRY_POINT_V08 } from '@dial/core';
import { type Address, decodeEventLog, decodeFunctionData, erc20Abi, type Hex } from 'viem';
import { entryPoint08Abi } from 'viem/account-abstraction';
import type { ChainReceipt, ChainTransaction, TransactionEvidence } from '../chain/chainReader.js';
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
  if (!same(transaction.from, claim.from)) {
    // A user operation (a sponsored send): a bundler sent the transaction, the wallet is an operation's sender.
    return same(transaction.to, ENTRY_POINT_V08)
      ? judgeUserOperation(claim, transaction, evidence.receipt, usdc)
      : { kind: 'not_sender' };
  }
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

/**
 * Judges a claim against a bundler's `handleOps` transaction to EntryPoint v0.8: one of its user operations
 * must come from the sender (`not_sender` otherwise) and make exactly the transfer described among its calls
 * (Simple7702Account `execute`/`executeBatch`); its own outcome is the `UserOperationEvent` the EntryPoint
 * logged for that sender and nonce (`success`), since a bundle can succeed while one of its operations
 * reverted. A reverted bundle ran nothing.
 */
function judgeUserOperation(
  claim: TransferClaim,
  transaction: ChainTransaction,
  receipt: ChainReceipt | null,
  usdc: Address | undefined,
): Verdict {
  let operations: readonly { sender: Address; nonce: bigint; callData: Hex }[];
  try {
    const call = decodeFunctionData({ abi: entryPoint08Abi, data: transaction.input });
    if (call.functionName !== 'handleOps') return { kind: 'not_sender' };
    operations = call.args[0];
  } catch {
    return { kind: 'not_sender' };
  }
  const own = operations.filter((operation) => same(operation.sender, claim.from));
  if (own.length === 0) return { kind: 'not_sender' };
  if (claim.asset === 'usdc' && usdc === undefined)
    return { kind: 'mismatch', reason: 'no USDC on this chain' };

  const amount = BigInt(claim.amount);
  const isClaimed = (call: AccountCall) =>
    claim.asset === 'native'
      ? same(call.to, claim.to) && call.value === amount && call.data === '0x'
      : same(call.to, usdc) && call.value === 0n && isTransferCall(call.data, claim.to, amount);
  const operation = own.find((candidate) => decodeAccountCalls(candidate.callData)?.some(isClaimed) === true);
  if (operation === undefined) return { kind: 'mismatch', reason: 'no user operation makes that transfer' };
  if (receipt === null) return { kind: 'pending' };
  if (receipt.status === 'reverted') return { kind: 'failed' };

  for (const log of receipt.logs) {
    if (!same(log.address, ENTRY_POINT_V08)) continue;
    try {
      const event = decodeEventLog({
        abi: entryPoint08Abi,
        eventName: 'UserOperationEvent',
        topics: log.topics as [Hex, ...Hex[]],
        data: log.data,
        strict: true,
      });
      if (same(event.args.sender, claim.from) && event.args.nonce === operation.nonce) {
        return { kind: event.args.success ? 'confirmed' : 'failed' };
      }
    } catch {
      // Another EntryPoint event (BeforeExecution, Deposited, …).
    }
  }
  // A mined bundle logs an event for each operation it ran: none for this one means it did not run.
  return { kind: 'failed' };
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
