import { useEffect, useRef, useState } from 'react';
import type { Chain, PublicClient } from 'viem';
import { createChainClient } from '../wallet/useBalance';
import type { Transfer } from './activityApi';
import { type ChainEvidence, verifyReceived } from './verifyReceived';
import { RETRY_DELAYS_MS, verifyWithRetry } from './verifyWithRetry';

/** `retrying`: the chain did not show the transfer yet (or could not be read); it is checked again. */
export type Verification = 'checking' | 'retrying' | 'verified' | 'unverified';

export interface VerificationOptions {
  address: `0x${string}`;
  chains: readonly Chain[];
  /** The chain's USDC contract, if it has one. */
  usdcOf(chainId: number): `0x${string}` | undefined;
}

/**
 * Checks every received transfer on its chain, since what the list shows of it is only what the sender's
 * browser reported. One the chain does not show yet (not mined, or the RPC failed) is checked again for
 * about a minute (see {@link verifyWithRetry}) before it is left unverified; a mismatch is final at once,
 * and so is a chain that is not offered. The checks stop when the list goes away. Each new `round` (a refresh)
 * checks those left unverified once more; verified ones, and ones still being checked, are left as they are.
 */
export function useVerifications(
  items: readonly Transfer[],
  { address, chains, usdcOf }: VerificationOptions,
  round = 0,
) {
  const [results, setResults] = useState<ReadonlyMap<string, Verification>>(new Map());
  const latestResults = useRef(results);
  latestResults.current = results;
  const checkedRound = useRef(round);
  const started = useRef(new Set<string>());
  const clients = useRef(new Map<number, PublicClient>());
  const running = useRef<AbortController | null>(null);

  // Declared first, so its controller exists before the checks below start (also after a StrictMode remount).
  useEffect(() => {
    const controller = new AbortController();
    running.current = controller;
    return () => {
      controller.abort();
      // Mounted again (StrictMode does), the list checks its transfers again rather than leaving them stuck.
      started.current.clear();
    };
  }, []);

  useEffect(() => {
    const signal = running.current?.signal;
    if (signal === undefined || signal.aborted) return;
    if (round !== checkedRound.current) {
      checkedRound.current = round;
      for (const [id, value] of latestResults.current) {
        if (value === 'unverified') started.current.delete(id);
      }
    }
    for (const transfer of items) {
      if (transfer.direction !== 'received' || started.current.has(transfer.id)) continue;
      started.current.add(transfer.id);
      const set = (value: Verification) => {
        if (!signal.aborted) setResults((current) => new Map(current).set(transfer.id, value));
      };
      const chain = chains.find((candidate) => candidate.id === transfer.chainId);
      if (chain === undefined) {
        set('unverified');
        continue;
      }
      let client = clients.current.get(chain.id);
      if (client === undefined) {
        client = createChainClient(chain) as PublicClient;
        clients.current.set(chain.id, client);
      }
      const chainClient = client;
      set('checking');
      const check = async () =>
        verifyReceived(transfer, address, await readEvidence(chainClient, transfer), usdcOf(chain.id));
      void verifyWithRetry(check, {
        delays: RETRY_DELAYS_MS,
        signal,
        onRetry: () => set('retrying'),
      }).then((outcome) => {
        if (outcome !== 'stopped') set(outcome);
      });
    }
  }, [items, chains, address, usdcOf, round]);

  return results;
}

async function readEvidence(client: PublicClient, transfer: Transfer): Promise<ChainEvidence> {
  const [receipt, transaction] = await Promise.all([
    client.getTransactionReceipt({ hash: transfer.txHash }),
    transfer.asset === 'native'
      ? client.getTransaction({ hash: transfer.txHash })
      : Promise.resolve(undefined),
  ]);
  return { receipt, ...(transaction !== undefined ? { transaction } : {}) };
}
