import {
  getChains,
  isNativeOnrampAsset,
  LOCAL_CHAIN_ID,
  ONRAMP_NETWORK_CHAIN_IDS,
  type OnrampAsset,
} from '@dial/core';
import type { AppConfig } from '../config/index.js';

/** An offer as the web app shows it (`/api/config` → `onramp.offers`). */
export interface AvailableOffer {
  asset: OnrampAsset;
  /** The provider's network name, sent as `defaultNetwork`. */
  network: string;
  /** How people call that network, e.g. `Arbitrum One`. */
  networkName: string;
  /**
   * The EVM chain the funds arrive on, where the app reads the new balance: the network's own chain, the
   * local chain (31337) in the sandbox, or null off EVM (BTC, SOL) or on a network Dial does not know.
   */
  chainId: number | null;
}

const NETWORK_NAMES: Readonly<Record<string, string>> = {
  ethereum: 'Ethereum',
  base: 'Base',
  polygon: 'Polygon',
  arbitrum: 'Arbitrum One',
  bitcoin: 'Bitcoin',
  solana: 'Solana',
};

/**
 * What this server offers, from the configured table, keeping only what the user's wallet can hold and the
 * app can show:
 * - EVM networks whose chain the wallet lists (`getChains`; so not Ethereum mainnet, which Dial's network
 *   picker does not offer), and configured networks Dial does not know (their chain id is unknown: null);
 * - BTC and SOL only with `ONRAMP_BTC_ADDRESS` / `ONRAMP_SOL_ADDRESS` set, and only through Coinbase;
 * - in the sandbox, only USDC (when the local chain has its test USDC) and native currencies on known EVM
 *   networks, all crediting the local chain.
 */
export function availableOffers(
  config: Pick<AppConfig, 'onramp' | 'rpcUrls' | 'localChain'>,
): AvailableOffer[] {
  const onramp = config.onramp;
  if (onramp === null) return [];
  const walletChainIds = new Set(getChains({ rpcUrls: config.rpcUrls }).map((chain) => chain.id));
  const offers: AvailableOffer[] = [];
  for (const { asset, network } of onramp.offers) {
    const known = Object.hasOwn(ONRAMP_NETWORK_CHAIN_IDS, network);
    const chainId = known ? (ONRAMP_NETWORK_CHAIN_IDS[network] ?? null) : null;
    const networkName = NETWORK_NAMES[network] ?? network.charAt(0).toUpperCase() + network.slice(1);
    if (chainId !== null && !walletChainIds.has(chainId)) continue;
    if (asset === 'BTC' || asset === 'SOL') {
      const address = asset === 'BTC' ? onramp.btcAddress : onramp.solAddress;
      if (onramp.provider !== 'coinbase' || address === null || chainId !== null) continue;
      offers.push({ asset, network, networkName, chainId: null });
      continue;
    }
    if (onramp.provider === 'sandbox') {
      if (chainId === null) continue;
      if (!isNativeOnrampAsset(asset) && (config.localChain?.usdc ?? null) === null) continue;
      offers.push({ asset, network, networkName, chainId: LOCAL_CHAIN_ID });
      continue;
    }
    if (known && chainId === null) continue;
    offers.push({ asset, network, networkName, chainId });
  }
  return offers;
}
