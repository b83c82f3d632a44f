import { DialError } from '@dial/core';
import type { Kysely } from 'kysely';
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  isAddressEqual,
} from 'viem';
import { findAccountByWallet } from '../auth/accountWallet.js';
import type { SponsorCalls } from '../config/index.js';
import type { Database } from '../db/database.js';

/** The calls of Simple7702Account (eth-infinitism, v0.8's BaseAccount) a user operation's callData makes. */
export const SIMPLE_7702_ACCOUNT_ABI = [
  {
    type: 'function',
    name: 'execute',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'target', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'data', type: 'bytes' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'executeBatch',
    stateMutability: 'nonpayable',
    inputs: [
      {
        name: 'calls',
        type: 'tuple[]',
        components: [
          { name: 'target', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'data', type: 'bytes' },
        ],
      },
    ],
    outputs: [],
  },
] as const;

/** One call an operation makes from the account. */
export interface AccountCall {
  target: Address;
  value: bigint;
  data: Hex;
}

/**
 * The calls a Simple7702Account operation's callData makes (`execute` or `executeBatch`, encoded exactly:
 * nothing after the arguments), or `sponsor_not_allowed` for anything else.
 */
export function decodeAccountCalls(callData: Hex): AccountCall[] {
  let decoded: ReturnType<typeof decodeFunctionData<typeof SIMPLE_7702_ACCOUNT_ABI>>;
  try {
    decoded = decodeFunctionData({ abi: SIMPLE_7702_ACCOUNT_ABI, data: callData });
  } catch {
    throw new DialError('sponsor_not_allowed', { details: 'callData is not execute or executeBatch' });
  }
  const calls: AccountCall[] =
    decoded.functionName === 'execute'
      ? [{ target: decoded.args[0], value: decoded.args[1], data: decoded.args[2] }]
      : decoded.args[0].map((call) => ({ target: call.target, value: call.value, data: call.data }));
  const exact = encodeFunctionData({
    abi: SIMPLE_7702_ACCOUNT_ABI,
    functionName: decoded.functionName,
    args: decoded.args,
  } as Parameters<typeof encodeFunctionData<typeof SIMPLE_7702_ACCOUNT_ABI>>[0]);
  if (exact.toLowerCase() !== callData.toLowerCase()) {
    throw new DialError('sponsor_not_allowed', { details: 'callData is not exactly encoded' });
  }
  if (calls.length === 0) throw new DialError('sponsor_not_allowed', { details: 'no call' });
  return calls;
}

/** What {@link checkCalls} needs to judge an operation's calls. */
export interface CallPolicy {
  calls: SponsorCalls;
  /** The sender: the session's embedded wallet. */
  sender: Address;
  /** The account asking. */
  userId: string;
  /** USDC on the chain, if it has one. */
  usdc: Address | undefined;
  db: Kysely<Database>;
}

/**
 * Refuses (`sponsor_not_allowed`) an operation any of whose calls `SPONSOR_CALLS` does not pay for: only a
 * transfer of the native currency (no data) or USDC's `transfer(to, amount)` (no value), to anyone with
 * `transfers`, or only to another Dial account's wallet with `dial-accounts`. Nothing else: no approval, no
 * call of any other contract, no call back into the account itself.
 */
export async function checkCalls(operationCalls: readonly AccountCall[], policy: CallPolicy): Promise<void> {
  if (policy.calls === 'off') throw new DialError('sponsor_unavailable');
  for (const call of operationCalls) {
    const recipient = transferRecipient(call, policy.usdc);
    if (recipient === null) {
      throw new DialError('sponsor_not_allowed', { details: `call to ${call.target} is not a transfer` });
    }
    if (isAddressEqual(recipient, policy.sender) || isAddressEqual(call.target, policy.sender)) {
      throw new DialError('sponsor_not_allowed', { details: 'a call back to the sender' });
    }
    if (policy.calls === 'dial-accounts') {
      const owner = await findAccountByWallet(policy.db, recipient);
      if (owner === undefined || owner === policy.userId) {
        throw new DialError('sponsor_not_allowed', {
          message:
            "Network fees are paid only for sends to other Dial accounts. Send with ETH for the fee, or send to a Dial user's number.",
          details: `${recipient} is no other Dial account's wallet`,
        });
      }
    }
  }
}

/** Whom a call transfers an offered asset to, or `null` when it is no such transfer. */
function transferRecipient(call: AccountCall, usdc: Address | undefined): Address | null {
  if (call.data === '0x') return getAddress(call.target);
  if (usdc === undefined || !isAddressEqual(call.target, usdc) || call.value !== 0n) return null;
  try {
    const decoded = decodeFunctionData({ abi: erc20Abi, data: call.data });
    if (decoded.functionName !== 'transfer') return null;
    const exact = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: decoded.args });
    if (exact.toLowerCase() !== call.data.toLowerCase()) return null;
    return getAddress(decoded.args[0]);
  } catch {
    return null;
  }
}
