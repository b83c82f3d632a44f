import {
  createEmbeddedProvider,
  DialError,
  findCause,
  isDialError,
  sendTransactionWithFallback,
} from '@dial/core';
import { type Chain, numberToHex } from 'viem';
import { sendWithWallet } from '../connect/sendWithWallet';
import { loadSigningAccount } from '../keys/signingAccount';
import type { FeeEstimate } from './networkFee';
import type { TransferCall } from './transferCall';

/**
 * Who signs for the account's wallet: `embedded`, the key rebuilt from its shares in this browser;
 * `external`, the person's own wallet app (Dial holds none of its key), which asks them to confirm.
 */
export type WalletSigner = 'embedded' | 'external';

export interface SignAndSendOptions {
  userId: string;
  signer: WalletSigner;
  address: `0x${string}`;
  chain: Chain;
  chains: readonly Chain[];
  call: TransferCall;
  /** Signed with exactly this gas and these fee caps: the ones the balance check was made against. */
  estimate: FeeEstimate;
}

/**
 * Signs `call` with the wallet and sends it to the chain; returns the transaction hash. An embedded wallet
 * signs with its key rebuilt from its shares for this one signature, through the embedded provider: the
 * caller has already checked the balances and had the person confirm, so the provider approves without
 * asking again. An external wallet is asked through its own app (`sendWithWallet`), which asks the person.
 *
 * @throws {DialError} the share errors of {@link loadSigningAccount}, `insufficient_balance` when the node
 * refuses for lack of funds, `chain_unavailable`, or `internal_error`. Nothing was sent when it throws.
 */
export async function signAndSend(options: SignAndSendOptions): Promise<`0x${string}`> {
  const { userId, signer, address, chain, chains, call, estimate } = options;
  const transaction = {
    from: address,
    to: call.to,
    value: numberToHex(call.value),
    ...(call.data !== undefined ? { data: call.data } : {}),
    gas: numberToHex(estimate.gas),
    maxFeePerGas: numberToHex(estimate.maxFeePerGas),
    maxPriorityFeePerGas: numberToHex(estimate.maxPriorityFeePerGas),
  };
  if (signer === 'external') {
    try {
      return await sendWithWallet(address, chain, transaction);
    } catch (error) {
      throw sendError(error);
    }
  }
  const provider = createEmbeddedProvider({
    address,
    chains,
    chainId: chain.id,
    getAccount: () => loadSigningAccount(userId, address),
  });
  try {
    return await sendTransactionWithFallback(provider, transaction);
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
