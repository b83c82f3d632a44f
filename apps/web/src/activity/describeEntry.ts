import { shortenAddress, USDC_DECIMALS } from '@dial/core';
import type { Chain } from 'viem';
import { explorerName, explorerTxUrl } from '../chain/explorerLink';
import { formatExactAmount } from '../chain/formatExactAmount';
import type { ActivityEntry } from './activityApi';

export interface EntryView {
  /** What it was: "Sent", "Received", "Test funds", "Bought or deposited", "Balance increase". */
  direction: string;
  /** The other side: "To *3456 · 0x7099…79C8", "From 0xf39F…2266", or where it was seen ("In block 123"). */
  counterparty: string;
  /** "5 USDC", "0.01 ETH": every decimal, not rounded. */
  amount: string;
  network: string;
}

const TITLES = {
  faucet: 'Test funds',
  onramp: 'Bought or deposited',
  outside: 'Received',
  balance: 'Balance increase',
} as const;

/**
 * How an entry of the history reads. A Dial transfer names the other side by their masked number (when the
 * server has one) and their shortened address; other money names the address it came from; a balance change
 * the block it was seen in. The network is named from `chains`, or by its id when it is not offered.
 */
export function describeEntry(entry: ActivityEntry, chains: readonly Chain[]): EntryView {
  const chain = chains.find((candidate) => candidate.id === entry.chainId);
  const sent = entry.direction === 'sent';
  const address = sent ? entry.to : entry.from;
  const other = [entry.counterparty.phone, address === null ? null : shortenAddress(address)]
    .filter((part) => part !== null)
    .join(' · ');
  const units =
    entry.asset === 'usdc'
      ? { decimals: USDC_DECIMALS, symbol: 'USDC' }
      : (chain?.nativeCurrency ?? { decimals: 18, symbol: 'ETH' });
  let amount: string;
  try {
    amount = formatExactAmount(BigInt(entry.amount), units);
  } catch {
    amount = `${entry.amount} (units) ${units.symbol}`;
  }
  let counterparty = `${sent ? 'To' : 'From'} ${other}`;
  if (entry.source === 'balance') counterparty = `In block ${entry.blockNumber ?? '?'}`;
  else if (other === '') counterparty = '';
  return {
    direction: entry.source === 'dial' ? (sent ? 'Sent' : 'Received') : TITLES[entry.source],
    counterparty,
    amount,
    network: chain?.name ?? `Chain ${entry.chainId}`,
  };
}

/**
 * The transaction's page on the chain's block explorer and the explorer's name ("Basescan"), or undefined
 * when the chain has none (the local chain): then only the hash is shown.
 */
export function explorerLink(chain: Chain, hash: `0x${string}`): { url: string; name: string } | undefined {
  const url = explorerTxUrl(chain, hash);
  return url === undefined ? undefined : { url, name: explorerName(chain) };
}
