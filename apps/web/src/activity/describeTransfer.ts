import { shortenAddress, USDC_DECIMALS } from '@dial/core';
import type { Chain } from 'viem';
import { formatExactAmount } from '../chain/formatExactAmount';
import type { Transfer } from './activityApi';

export interface TransferView {
  /** "Sent" or "Received". */
  direction: string;
  /** "To *3456", "From 0xf39F…2266". */
  counterparty: string;
  /** "5 USDC", "0.01 ETH": every decimal, not rounded. */
  amount: string;
  network: string;
}

/**
 * How a transfer reads in the activity list. The other side is their masked number when the server has one,
 * else their shortened address; the network is named from `chains`, or by its id when it is not offered.
 */
export function describeTransfer(transfer: Transfer, chains: readonly Chain[]): TransferView {
  const chain = chains.find((candidate) => candidate.id === transfer.chainId);
  const sent = transfer.direction === 'sent';
  const other = transfer.counterparty.phone ?? shortenAddress(sent ? transfer.to : transfer.from);
  const units =
    transfer.asset === 'usdc'
      ? { decimals: USDC_DECIMALS, symbol: 'USDC' }
      : (chain?.nativeCurrency ?? { decimals: 18, symbol: 'ETH' });
  let amount: string;
  try {
    amount = formatExactAmount(BigInt(transfer.amount), units);
  } catch {
    amount = `${transfer.amount} (units) ${units.symbol}`;
  }
  return {
    direction: sent ? 'Sent' : 'Received',
    counterparty: `${sent ? 'To' : 'From'} ${other}`,
    amount,
    network: chain?.name ?? `Chain ${transfer.chainId}`,
  };
}
