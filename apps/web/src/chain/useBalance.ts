import { useCallback, useMemo } from 'react';
import type { Chain } from 'viem';
import { createChainClient } from './createChainClient';
import { useBalanceReading } from './useBalanceReading';

export type { BalanceState } from './useBalanceReading';

/**
 * The native balance of `address` on `chain`, read from the chain's RPC by the browser (viem), kept as every
 * balance is (`useBalanceReading`): switching chains loads again, a failed read is tried again by itself, and
 * the live wallet's checks read it again quietly.
 */
export function useBalance(chain: Chain, address: `0x${string}`) {
  const client = useMemo(() => createChainClient(chain), [chain]);
  const read = useCallback(() => client.getBalance({ address }), [client, address]);
  return { ...useBalanceReading(read), client };
}
