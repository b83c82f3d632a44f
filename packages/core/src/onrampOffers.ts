import { DialError } from './errors.js';

/** The assets Dial's on-ramp can offer. */
export type OnrampAsset = 'USDC' | 'ETH' | 'BTC' | 'SOL' | 'POL';

/** Every {@link OnrampAsset}, for validation. */
export const ONRAMP_ASSETS: readonly OnrampAsset[] = Object.freeze(['USDC', 'ETH', 'BTC', 'SOL', 'POL']);

/** `buy`: pay by card; `send`: send from the user's exchange account. */
export type OnrampExperience = 'buy' | 'send';

/**
 * The provider's network names (Coinbase Onramp's `defaultNetwork` / `blockchains` values) Dial knows, with
 * the EVM chain id each is, or `null` for a chain that is not EVM (its address is not the wallet's).
 */
export const ONRAMP_NETWORK_CHAIN_IDS: Readonly<Record<string, number | null>> = Object.freeze({
  ethereum: 1,
  base: 8453,
  polygon: 137,
  arbitrum: 42161,
  bitcoin: null,
  solana: null,
});

/** One thing the on-ramp sells: an asset on a provider network. */
export interface OnrampOffer {
  readonly asset: OnrampAsset;
  /** The provider's network name, e.g. `base`. */
  readonly network: string;
}

/**
 * What is offered where, the one table {@link buildOnrampUrl} checks against: each chain's native currency
 * (ETH on Ethereum, Base and Arbitrum One; POL on Polygon) and USDC on those four, plus BTC on `bitcoin` and
 * SOL on `solana` (which need an address on their own chain, so a server offers them only when one is
 * configured). A server extends it with `ONRAMP_OFFERS`.
 */
export const DEFAULT_ONRAMP_OFFERS: readonly OnrampOffer[] = Object.freeze([
  { asset: 'USDC', network: 'ethereum' },
  { asset: 'USDC', network: 'base' },
  { asset: 'USDC', network: 'polygon' },
  { asset: 'USDC', network: 'arbitrum' },
  { asset: 'ETH', network: 'ethereum' },
  { asset: 'ETH', network: 'base' },
  { asset: 'ETH', network: 'arbitrum' },
  { asset: 'POL', network: 'polygon' },
  { asset: 'BTC', network: 'bitcoin' },
  { asset: 'SOL', network: 'solana' },
]);

/** Whether `asset` on `network` is in `offers`. */
export function isOnrampOffered(offers: readonly OnrampOffer[], asset: string, network: string): boolean {
  return offers.some((offer) => offer.asset === asset && offer.network === network);
}

/**
 * Whether the asset is the native currency of its network (bought from the faucet in the sandbox), rather
 * than a token (USDC).
 */
export function isNativeOnrampAsset(asset: OnrampAsset): boolean {
  return asset !== 'USDC';
}

/**
 * Reads `ONRAMP_OFFERS`-style text, `ASSET:network` pairs separated by commas (e.g. `USDC:optimism,ETH:optimism`),
 * into offers.
 *
 * @throws {DialError} `invalid_data` for an unknown asset or a malformed pair.
 */
export function parseOnrampOffers(text: string): OnrampOffer[] {
  const offers: OnrampOffer[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const match = /^([A-Za-z]+):([a-z0-9-]+)$/.exec(entry);
    const asset = match?.[1]?.toUpperCase();
    if (match === null || !ONRAMP_ASSETS.includes(asset as OnrampAsset)) {
      throw new DialError('invalid_data', {
        details: `not an ASSET:network pair with an asset of ${ONRAMP_ASSETS.join(', ')}: ${JSON.stringify(entry)}`,
      });
    }
    offers.push({ asset: asset as OnrampAsset, network: match[2]! });
  }
  return offers;
}
