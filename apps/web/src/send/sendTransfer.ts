import {
  createEmbeddedProvider,
  DialError,
  findCause,
  isDialError,
  sendTransactionWithFallback,
} from '@dial/core';
import { type Chain, numberToHex } from 'viem';
import { loadSigningAccount } from '../keys/signingAccount';
import type { FeeEstimate } from './networkFee';
import type { TransferCall } from './transferCall';

export interface SignAndSendOptions {
  userId: string;
  address: `0x${string}`;
  chain: Chain;
  chains: readonly Chain[];
  call: TransferCall;
  /** Signed with exactly this gas and these fee caps: the ones the balance check was made against. */
  estimate: FeeEstimate;
}

/**
 * Signs `call` with the wallet (the key rebuilt from its shares for this one signature, through the embedded
 * provider) and sends it to the chain; returns the transaction hash. The caller has already checked the
 * balances and had the person confirm, so the provider approves without asking again.
 *
 * @throws {DialError} the share errors of {@link loadSigningAccount}, `insufficient_balance` when the node
 * refuses for lack of funds, `chain_unavailable`, or `internal_error`. Nothing was sent when it throws.
 */
export async function signAndSend(options: SignAndSendOptions): Promise<`0x${string}`> {
  const { userId, address, chain, chains, call, estimate } = options;
  const provider = createEmbeddedProvider({
    address,
    chains,
    chainId: chain.id,
    getAccount: () => loadSigningAccount(userId, address),
  });
  try {
    return await sendTransactionWithFallback(provider, {
      from: address,
      to: call.to,
      value: numberToHex(call.value),
      ...(call.data !== undefined ? { data: call.data } : {}),
      gas: numberToHex(estimate.gas),
      maxFeePerGas: numberToHex(estimate.maxFeePerGas),
      maxPriorityFeePerGas: numberToHex(estimate.maxPriorityFeePerGas),
    });
  } catch (error) {
    throw sendError(error);
  } finally {
    provider.disconnect();
  }
}

/** The catalogue error for what the provider threw: a share problem as it is, else by the EIP-1193 code. */
export function sendError(error: unknown): DialError {
  const dialError = findCause(error, isDialError);
  if (dialError !== undefined) return dialError;
  const text = messages(error).toLowerCase();
  if (text.includes('insufficient funds')) return new DialError('insufficient_balance', { cause: error });
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 4001) return new DialError('user_rejected', { cause: error });
  if (code === 4901 || code === 4900) return new DialError('chain_unavailable', { cause: error });
  return new DialError('internal_error', { cause: error });
}

function messages(error: unknown): string {
  const parts: string[] = [];
  let current = error;
  for (let depth = 0; depth < 16 && current !== undefined && current !== null; depth++) {
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string') parts.push(message);
    const details = (current as { details?: unknown }).details;
    if (typeof details === 'string') parts.push(details);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(' ');
}
