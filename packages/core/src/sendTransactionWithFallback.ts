import type { Hash } from 'viem';

/** Anything with an EIP-1193 `request` function: a provider, `window.ethereum`, a viem transport. */
export interface TransactionRequester {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

/** EIP-1193 "Unsupported Method". */
const UNSUPPORTED_METHOD = 4200;
/** JSON-RPC 2.0 "Method not found". */
const METHOD_NOT_FOUND = -32601;

/**
 * Sends a transaction through a wallet: asks for `eth_sendTransaction`, and when the wallet answers that it
 * does not support the method (EIP-1193 code 4200, or JSON-RPC -32601 "method not found"), asks once more
 * with `wallet_sendTransaction`, the name some wallets use. Any other error (4001 refused by the person,
 * say) is rethrown unchanged, without a retry: the person must not be asked twice.
 *
 * @param provider - The wallet's provider (anything with an EIP-1193 `request`).
 * @param transaction - The transaction in JSON-RPC form (hex quantities), e.g. `{ from, to, value: '0x1' }`.
 * @returns The transaction hash the wallet answers.
 * @throws Whatever the wallet throws, unchanged (the second method's error when the first was unsupported).
 *
 * @example
 * ```ts
 * const hash = await sendTransactionWithFallback(window.ethereum, {
 *   from: account,
 *   to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
 *   value: numberToHex(parseEther('0.01')),
 * });
 * ```
 */
export async function sendTransactionWithFallback(
  provider: TransactionRequester,
  transaction: Record<string, unknown>,
): Promise<Hash> {
  try {
    return (await provider.request({ method: 'eth_sendTransaction', params: [transaction] })) as Hash;
  } catch (error) {
    if (!isUnsupportedMethodError(error)) throw error;
    return (await provider.request({ method: 'wallet_sendTransaction', params: [transaction] })) as Hash;
  }
}

function isUnsupportedMethodError(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === UNSUPPORTED_METHOD || code === METHOD_NOT_FOUND;
}
