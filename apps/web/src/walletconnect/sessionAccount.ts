import { DialError, readAddress } from '@dial/core';
import type { Address } from 'viem';

/** The part of a WalletConnect session's approved namespaces that Dial reads. */
export interface ApprovedNamespaces {
  [namespace: string]: { accounts: string[]; methods: string[]; chains?: string[] } | undefined;
}

/** The account a session gives Dial. */
export interface SessionAccount {
  address: Address;
  /** The chain to use first: the first of the chains Dial asked for that the wallet approved. */
  chainId: number;
  /** Every chain Dial asked for that the wallet approved an account on, in Dial's order. */
  chainIds: number[];
  /** The methods the wallet approved. */
  methods: string[];
}

/**
 * Reads the account a wallet approved: the `eip155` accounts (CAIP-10, `eip155:<chainId>:<address>`) on the
 * chains Dial asked for. A wallet holds one address per session here; accounts on other chains, or of
 * other namespaces, are ignored.
 *
 * @throws {DialError} `unsupported_chain` when the wallet approved no account on any of `chainIds`;
 * `invalid_data` when it approved different addresses, or an address that is not one.
 *
 * @example
 * readSessionAccount({ eip155: { accounts: ['eip155:8453:0xf39F…2266'], methods: ['personal_sign'] } }, [8453]);
 * // { address: '0xf39F…2266', chainId: 8453, chainIds: [8453], methods: ['personal_sign'] }
 */
export function readSessionAccount(
  namespaces: ApprovedNamespaces,
  chainIds: readonly number[],
): SessionAccount {
  const approved = namespaces.eip155;
  const byChain = new Map<number, string>();
  for (const account of approved?.accounts ?? []) {
    const [namespace, reference, address] = account.split(':');
    if (namespace !== 'eip155' || reference === undefined || address === undefined) continue;
    const chainId = Number(reference);
    if (chainIds.includes(chainId) && !byChain.has(chainId)) byChain.set(chainId, address);
  }
  const approvedChainIds = chainIds.filter((id) => byChain.has(id));
  const first = approvedChainIds[0];
  if (approved === undefined || first === undefined) {
    throw new DialError('unsupported_chain', { details: 'the wallet approved none of the proposed chains' });
  }
  const addresses = new Set([...byChain.values()].map((address) => address.toLowerCase()));
  if (addresses.size !== 1) {
    throw new DialError('invalid_data', { details: 'the wallet approved more than one address' });
  }
  return {
    address: readAddress(byChain.get(first)!),
    chainId: first,
    chainIds: approvedChainIds,
    methods: [...approved.methods],
  };
}
