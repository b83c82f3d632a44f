import { DialError } from '@dial/core';

/** The wallet methods Dial asks a WalletConnect wallet for: sign-in, and sending (either name, see core's `sendTransactionWithFallback`). */
export const WALLETCONNECT_METHODS = [
  'personal_sign',
  'eth_sendTransaction',
  'wallet_sendTransaction',
] as const;

/** The wallet events Dial listens to. */
export const WALLETCONNECT_EVENTS = ['accountsChanged', 'chainChanged'] as const;

/** A proposal's namespaces, as `@walletconnect/sign-client`'s `connect` takes them. */
export type ProposalNamespaces = Record<'eip155', { chains: string[]; methods: string[]; events: string[] }>;

/**
 * The namespaces of Dial's session proposal: `eip155` on the given chains, with {@link WALLETCONNECT_METHODS}
 * and {@link WALLETCONNECT_EVENTS}. They are proposed as *optional* namespaces: sign-client 2.x treats
 * required namespaces as deprecated (it moves them into the optional ones itself), and a wallet approves
 * the chains and methods it supports among them.
 *
 * @param chainIds - EVM chain ids, e.g. `[137, 42161, 8453]`.
 * @throws {DialError} `invalid_data` when the list is empty or holds something that is not a chain id.
 *
 * @example
 * walletConnectNamespaces([8453]).eip155.chains; // ['eip155:8453']
 */
export function walletConnectNamespaces(chainIds: readonly number[]): ProposalNamespaces {
  if (chainIds.length === 0 || !chainIds.every((id) => Number.isSafeInteger(id) && id > 0)) {
    throw new DialError('invalid_data', { details: `WalletConnect chain ids: ${chainIds.join(', ')}` });
  }
  return {
    eip155: {
      chains: [...new Set(chainIds)].map((id) => `eip155:${id}`),
      methods: [...WALLETCONNECT_METHODS],
      events: [...WALLETCONNECT_EVENTS],
    },
  };
}
