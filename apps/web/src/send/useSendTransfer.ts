import { MINUTE_MS } from '@dial/core';
import { useCallback, useRef, useState } from 'react';
import type { Chain } from 'viem';
import { ACTIVITY_CHANGED, checkTransferNow, recordTransfer, type Transfer } from '../activity/activityApi';
import type { ChainClient } from '../chain/createChainClient';
import { checkAndSend, type WalletSigner } from './sendTransfer';
import type { SendPlan } from './useSendForm';

export type SendProgress =
  | { phase: 'idle' }
  | { phase: 'checking' }
  | { phase: 'signing' }
  /** A user operation the bundler took, not yet included: no transaction hash before it is. */
  | { phase: 'submitted' }
  | {
      phase: 'pending' | 'confirmed' | 'failed' | 'timed-out';
      hash: `0x${string}`;
      /** Why the transfer is missing from the activity list, or its status there is stale; null when fine. */
      recordError: unknown;
    };

/** How long to wait for the receipt before saying the transfer is still pending. */
const RECEIPT_TIMEOUT_MS = 5 * MINUTE_MS;

export interface SendTransferOptions {
  userId: string;
  signer: WalletSigner;
  address: `0x${string}`;
  chains: readonly Chain[];
  client: ChainClient;
  usdcAddress: `0x${string}` | undefined;
  onBalancesChanged(): Promise<void>;
}

/**
 * "Confirm and send": checks the balances once more (read fresh from the chain, counting transfers still
 * pending; the embedded wallet's auth share and nonce are asked for at the same time), signs and sends, records the transfer in the activity, waits for the receipt and asks the server
 * to check it on the chain, then reloads the balances.
 * An error before the transaction is sent leaves nothing sent (`error`, phase back to idle).
 */
export function useSendTransfer({
  userId,
  signer,
  address,
  chains,
  client,
  usdcAddress,
  onBalancesChanged,
}: SendTransferOptions) {
  const [progress, setProgress] = useState<SendProgress>({ phase: 'idle' });
  const [error, setError] = useState<unknown>(null);
  const busy = useRef(false);

  const send = useCallback(
    async (plan: SendPlan) => {
      if (busy.current) return;
      busy.current = true;
      setError(null);
      try {
        setProgress({ phase: 'checking' });
        const hash = await checkAndSend(
          { userId, signer, address, chains, client, usdcAddress },
          plan,
          () => setProgress({ phase: 'signing' }),
          () => void onBalancesChanged(),
          () => setProgress({ phase: 'submitted' }),
        );
        await follow(plan, hash, client, setProgress);
        await onBalancesChanged().catch(() => undefined);
      } catch (caught) {
        setError(caught);
        setProgress({ phase: 'idle' });
      } finally {
        busy.current = false;
      }
    },
    [userId, signer, address, chains, client, usdcAddress, onBalancesChanged],
  );

  const clearError = useCallback(() => setError(null), []);
  return { progress, error, send, clearError };
}

/**
 * After the send: record, wait for the receipt, ask the server to check it on the chain. Never throws: the
 * transaction is out.
 */
async function follow(
  plan: SendPlan,
  hash: `0x${string}`,
  client: ChainClient,
  setProgress: (progress: SendProgress) => void,
): Promise<void> {
  let recordError: unknown = null;
  setProgress({ phase: 'pending', hash, recordError });
  const recorded: Promise<Transfer | null> = recordTransfer({
    chainId: plan.chain.id,
    txHash: hash,
    to: plan.recipient.address,
    asset: plan.asset,
    amount: plan.amount,
    ...(plan.recipient.phone !== undefined ? { recipientPhone: plan.recipient.phone } : {}),
  }).catch((caught: unknown) => {
    recordError = caught;
    setProgress({ phase: 'pending', hash, recordError });
    return null;
  });

  let outcome: 'confirmed' | 'failed' | 'timed-out';
  try {
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS });
    outcome = receipt.status === 'success' ? 'confirmed' : 'failed';
  } catch {
    outcome = 'timed-out';
  }
  const transfer = await recorded;
  if (transfer !== null && outcome !== 'timed-out') {
    try {
      // The server reads the outcome from the chain itself; this only asks it to look now.
      await checkTransferNow(transfer.id);
    } catch (caught) {
      recordError = caught;
    }
  }
  setProgress({ phase: outcome, hash, recordError });
  if (transfer !== null) window.dispatchEvent(new Event(ACTIVITY_CHANGED));
}
