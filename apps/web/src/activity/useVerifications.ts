import { useEffect, useRef, useState } from 'react';
import type { Chain, PublicClient } from 'viem';
import { createChainClient } from '../wallet/useBalance';
import type { Transfer } from './activityApi';
import { type ChainEvidence, verifyReceived } from './verifyReceived';

export type Verification = 'checking' | 'verified' | 'unverified';

export interface VerificationOptions {
  address: `0x${string}`;
  chains: readonly Chain[];
  /** The chain's USDC contract, if it has one. */
  usdcOf(chainId: number): `0x${string}` | undefined;
}

/**
 * Checks every received transfer on its chain (each once), since what the list shows of it is only what
 * the sender's browser reported. A chain that is not offered or cannot be read leaves it unverified.
 */
export function useVerifications(
  items: readonly Transfer[],
  { address, chains, usdcOf }: VerificationOptions,
) {
  const [results, setResults] = useState<ReadonlyMap<string, Verification>>(new Map());
  const started = useRef(new Set<string>());
  const clients = useRef(new Map<number, PublicClient>());

  useEffect(() => {
    for (const transfer of items) {
      if (transfer.direction !== 'received' || started.current.has(transfer.id)) continue;
      started.current.add(transfer.id);
      const set = (value: Verification) => setResults((current) => new Map(current).set(transfer.id, value));
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
      set('checking');
      readEvidence(client, transfer).then(
        (evidence) =>
          set(verifyReceived(transfer, address, evidence, usdcOf(chain.id)).ok ? 'verified' : 'unverified'),
        () => set('unverified'),
      );
    }
  }, [items, chains, address, usdcOf]);

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
