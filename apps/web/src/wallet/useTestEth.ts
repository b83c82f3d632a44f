import { useCallback, useState } from 'react';
import type { PublicClient } from 'viem';
import { requestTestEth } from '../api/endpoints';

/**
 * Development only: asks the server's faucet for 1 test ETH on the local chain, waits for the transaction,
 * then reloads the balance.
 */
export function useTestEth(client: PublicClient, refreshBalance: () => Promise<void>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const getTestEth = useCallback(async () => {
    setPending(true);
    setError(null);
    try {
      const { txHash } = await requestTestEth();
      // The local chain mines at once; the wait only guards against a chain that does not.
      await client.waitForTransactionReceipt({ hash: txHash, timeout: 30_000 }).catch(() => undefined);
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
    await refreshBalance();
  }, [client, refreshBalance]);

  return { getTestEth, pending, error };
}
