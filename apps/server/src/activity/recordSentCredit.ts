import type { FastifyBaseLogger } from 'fastify';
import type { Address, Hex, PublicClient } from 'viem';
import type { AppContext } from '../appContext.js';
import { readTransactionMoney } from '../chain/readChainMoney.js';
import { type CreditChange, recordCredit } from './creditStore.js';

/** Money the server sent to an account's wallet itself: the dev faucet, or the sandbox on-ramp. */
export interface SentCredit {
  userId: string;
  /** The account's wallet it was sent to, EIP-55. */
  wallet: Address;
  chainId: number;
  txHash: Hex;
  source: 'faucet' | 'onramp';
  asset: 'native' | 'usdc';
  /** What was sent, in base units. */
  amount: bigint;
  /** The on-ramp session's token hash. */
  onrampSession?: string;
}

/**
 * Records money the server just sent in the user's history, with the same key the chain watcher gives it
 * when it finds the transaction (so it is one entry, labelled with its source): reads the transaction and
 * its receipt first (`confirmed` or `failed`, its block, a USDC log's index). When they cannot be read, it is
 * recorded `pending`, and the watcher settles it from the receipt later. Never fails the caller (the money is
 * sent either way): a failure is logged.
 */
export async function recordSentCredit(
  ctx: Pick<AppContext, 'db' | 'now' | 'chain'>,
  client: (chainId: number) => PublicClient,
  sent: SentCredit,
  log: FastifyBaseLogger,
): Promise<CreditChange[]> {
  const base = {
    userId: sent.userId,
    wallet: sent.wallet,
    chainId: sent.chainId,
    txHash: sent.txHash.toLowerCase(),
    source: sent.source,
    asset: sent.asset,
    onrampSession: sent.onrampSession ?? null,
  };
  try {
    let money: Awaited<ReturnType<typeof readTransactionMoney>> = null;
    try {
      money = await readTransactionMoney(
        client(sent.chainId),
        sent.txHash,
        sent.wallet,
        ctx.chain.usdcAddress(sent.chainId),
      );
    } catch (error) {
      log.warn(
        { chainId: sent.chainId, txHash: sent.txHash, err: error },
        'could not read a sent credit yet',
      );
    }
    const found = money?.filter((item) => item.asset === sent.asset) ?? [];
    if (found.length === 0) {
      return [
        await recordCredit(ctx, {
          ...base,
          logIndex: null,
          amount: sent.amount.toString(),
          from: null,
          blockNumber: null,
          status: 'pending',
        }),
      ];
    }
    const changes: CreditChange[] = [];
    for (const item of found) {
      changes.push(
        await recordCredit(ctx, {
          ...base,
          logIndex: item.logIndex,
          amount: item.value.toString(),
          from: item.from,
          blockNumber: item.blockNumber,
          status: item.status,
        }),
      );
    }
    return changes;
  } catch (error) {
    log.error({ chainId: sent.chainId, txHash: sent.txHash, err: error }, 'recording a sent credit failed');
    return [];
  }
}
