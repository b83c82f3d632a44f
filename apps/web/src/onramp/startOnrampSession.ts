import type { OnrampSessionRequest, OnrampSessionStarted } from '@dial/api';
import { requestJson } from '../api/client';

/** What `POST /api/onramp/session` is asked for. */
export type OnrampPurchase = OnrampSessionRequest;

/** Starts a purchase for the signed-in user's wallet: the provider's buy-page link, with its session token. */
export function startOnrampSession(purchase: OnrampPurchase): Promise<OnrampSessionStarted> {
  return requestJson('POST', '/api/onramp/session', { body: purchase });
}
