import { DialError } from './errors.js';
import { normalizeOnrampAmount } from './normalizeOnrampAmount.js';
import {
  DEFAULT_ONRAMP_OFFERS,
  isOnrampOffered,
  type OnrampAsset,
  type OnrampExperience,
  type OnrampOffer,
} from './onrampOffers.js';

/** Coinbase Onramp's hosted buy page, the default base of {@link buildOnrampUrl}. */
export const COINBASE_ONRAMP_PAY_URL = 'https://pay.coinbase.com/buy/select-asset';

/** The most characters Coinbase accepts in `partnerUserId`. */
export const PARTNER_USER_ID_MAX_LENGTH = 49;

/** What {@link buildOnrampUrl} needs. */
export interface OnrampUrlOptions {
  /** The buy page, e.g. {@link COINBASE_ONRAMP_PAY_URL} or the sandbox's own. */
  baseUrl: string;
  /** The provider's app id (Coinbase's project id). */
  appId: string;
  /** The token the server obtained for this purchase. */
  sessionToken: string;
  /** This deployment's id; the link says `dial:<walletAppId>` as `endPartnerName`. */
  walletAppId: string;
  experience: OnrampExperience;
  /** A positive decimal string, e.g. `25`, `0.5` or `.5`. */
  amount: string;
  asset: OnrampAsset;
  /** The provider's network name, e.g. `base`. */
  network: string;
  /** A stable, opaque id of the user (at most 49 characters). */
  partnerUserId: string;
  /** What is offered where; {@link DEFAULT_ONRAMP_OFFERS} when left out. */
  offers?: readonly OnrampOffer[];
}

/**
 * Builds the on-ramp provider's buy-page link (a navigation, not a data call) with exactly these query
 * parameters, in this order: `appId`, `sessionToken`, `endPartnerName` (`dial:<walletAppId>`),
 * `defaultExperience`, `presetCryptoAmount`, `defaultNetwork`, `defaultPaymentMethod` (`CARD` for buy,
 * `CRYPTO_ACCOUNT` for send), `defaultAsset`, `partnerUserId`. Any query the base URL had is replaced.
 *
 * @throws {DialError} `invalid_data` when the asset is not offered on the network, the amount is not a
 * positive decimal, the base URL is not http(s), or a required value is empty.
 *
 * @example
 * ```ts
 * buildOnrampUrl({ baseUrl: COINBASE_ONRAMP_PAY_URL, appId: 'p', sessionToken: 't', walletAppId: 'w',
 *   experience: 'buy', amount: '.5', asset: 'ETH', network: 'base', partnerUserId: 'u' });
 * // 'https://pay.coinbase.com/buy/select-asset?appId=p&sessionToken=t&endPartnerName=dial%3Aw&…'
 * ```
 */
export function buildOnrampUrl(options: OnrampUrlOptions): string {
  const offers = options.offers ?? DEFAULT_ONRAMP_OFFERS;
  if (!isOnrampOffered(offers, options.asset, options.network)) {
    throw new DialError('invalid_data', {
      details: `${options.asset} is not offered on ${options.network}`,
    });
  }
  if (options.experience !== 'buy' && options.experience !== 'send') {
    throw new DialError('invalid_data', { details: `unknown experience ${String(options.experience)}` });
  }
  for (const name of ['appId', 'sessionToken', 'walletAppId', 'partnerUserId'] as const) {
    if (options[name].trim() === '') throw new DialError('invalid_data', { details: `${name} is empty` });
  }
  if (options.partnerUserId.length > PARTNER_USER_ID_MAX_LENGTH) {
    throw new DialError('invalid_data', { details: 'partnerUserId is too long' });
  }
  const amount = normalizeOnrampAmount(options.amount);
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch (error) {
    throw new DialError('invalid_data', { details: 'the on-ramp base URL is not a URL', cause: error });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DialError('invalid_data', { details: 'the on-ramp base URL is not http(s)' });
  }
  url.search = new URLSearchParams([
    ['appId', options.appId],
    ['sessionToken', options.sessionToken],
    ['endPartnerName', `dial:${options.walletAppId}`],
    ['defaultExperience', options.experience],
    ['presetCryptoAmount', amount],
    ['defaultNetwork', options.network],
    ['defaultPaymentMethod', options.experience === 'buy' ? 'CARD' : 'CRYPTO_ACCOUNT'],
    ['defaultAsset', options.asset],
    ['partnerUserId', options.partnerUserId],
  ]).toString();
  return url.toString();
}
