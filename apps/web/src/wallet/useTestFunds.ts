import { useCallback, useState } from 'react';
import { requestTestFunds } from '../api/endpoints';
import type { FaucetAsset } from '../api/types';
import type { ChainClient } from '../chain/createChainClient';

/** What the faucet gives, as the confirmation says it. */
const ARRIVED: Record<FaucetAsset, string> = {
  native: '1 test ETH arrived.',
  usdc: '100 test USDC arrived.',
};

/**
 * Development only: asks the server's faucet for test funds on the local chain (1 test ETH for `native`,
 * 100 test USDC for `usdc`), waits for the transaction, then reloads the balance; once the balance shows
 * them, `arrived` confirms it ("1 test ETH arrived."), until the next request.
 *
 * @param refreshBalance - Reloads the balance; resolves to true when it was read (false: it failed).
 */
export function useTestFunds(
  asset: FaucetAsset,
  client: ChainClient,
  refreshBalance: () => Promise<boolean>,
) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [arrived, setArrived] = useState('');

  const request = useCallback(async () => {
    setPending(true);
    setError(null);
    setArrived('');
    let sent = false;
    try {
      const { txHash } = await requestTestFunds(asset);
      // The local chain mines at once; the wait only guards against a chain that does not.
      const receipt = await client
        .waitForTransactionReceipt({ hash: txHash, timeout: 30_000 })
        .catch(() => undefined);
      sent = receipt?.status === 'success';
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
    if ((await refreshBalance()) && sent) setArrived(ARRIVED[asset]);
  }, [asset, client, refreshBalance]);

  return { request, pending, error, arrived };
}
