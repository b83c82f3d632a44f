import { useCallback, useState } from 'react';
import { requestTestFunds } from '../api/endpoints';
import type { FaucetAsset } from '../api/types';
import type { ChainClient } from '../chain/createChainClient';

/**
 * Development only: asks the server's faucet for test funds on the local chain (1 test ETH for `native`,
 * 100 test USDC for `usdc`), waits for the transaction, then reloads the balance.
 */
export function useTestFunds(asset: FaucetAsset, client: ChainClient, refreshBalance: () => Promise<void>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const request = useCallback(async () => {
    setPending(true);
    setError(null);
    try {
      const { txHash } = await requestTestFunds(asset);
      // The local chain mines at once; the wait only guards against a chain that does not.
      await client.waitForTransactionReceipt({ hash: txHash, timeout: 30_000 }).catch(() => undefined);
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
    await refreshBalance();
  }, [asset, client, refreshBalance]);

  return { request, pending, error };
}
