import { DialError } from '@dial/core';
import type { CoinbaseOnrampConfig, OnrampConfig } from '../config/index.js';
import type { AvailableOffer } from './availableOffers.js';
import { signCdpJwt } from './cdpJwt.js';
import type { OnrampProvider, OnrampSessionRequest } from './onrampProvider.js';

/** How long Coinbase's token API may take. */
const TIMEOUT_MS = 10_000;

/**
 * Coinbase Onramp: a session token from `POST <ONRAMP_API_URL>/v1/token`, authenticated with a JWT signed by
 * the CDP API key, for the user's wallet on the offered EVM networks (and the configured BTC/SOL addresses),
 * restricted to the offered assets.
 */
export function createCoinbaseProvider(
  coinbase: CoinbaseOnrampConfig,
  onramp: Pick<OnrampConfig, 'btcAddress' | 'solAddress'>,
  offers: readonly AvailableOffer[],
): OnrampProvider {
  const endpoint = new URL(`${coinbase.apiUrl}/v1/token`);
  return {
    name: 'coinbase',
    appId: coinbase.projectId,
    payUrl: coinbase.payUrl,
    async createSessionToken(request: OnrampSessionRequest) {
      const evmNetworks = unique(
        offers.filter((offer) => offer.chainId !== null).map((offer) => offer.network),
      );
      const addresses: { address: string; blockchains: string[] }[] = [
        { address: request.walletAddress, blockchains: evmNetworks },
      ];
      if (onramp.btcAddress !== null && offers.some((offer) => offer.asset === 'BTC')) {
        addresses.push({ address: onramp.btcAddress, blockchains: ['bitcoin'] });
      }
      if (onramp.solAddress !== null && offers.some((offer) => offer.asset === 'SOL')) {
        addresses.push({ address: onramp.solAddress, blockchains: ['solana'] });
      }
      const body = {
        addresses,
        assets: unique(offers.map((offer) => offer.asset)),
        clientIp: request.clientIp,
      };
      const jwt = signCdpJwt({
        keyId: coinbase.keyId,
        keySecret: coinbase.keySecret,
        method: 'POST',
        host: endpoint.host,
        path: endpoint.pathname,
      });
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        throw new DialError('onramp_unavailable', {
          details: 'Coinbase token API unreachable',
          cause: error,
        });
      }
      if (!response.ok) {
        throw new DialError('onramp_unavailable', {
          details: `Coinbase token API answered HTTP ${response.status}`,
        });
      }
      const answer = (await response.json().catch(() => null)) as { token?: unknown } | null;
      if (typeof answer?.token !== 'string' || answer.token === '') {
        throw new DialError('onramp_unavailable', { details: 'Coinbase token API answered without a token' });
      }
      return answer.token;
    },
  };
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
