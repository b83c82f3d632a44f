import type { OnrampAsset, OnrampExperience } from '@dial/core';

/** One purchase a session token is asked for. */
export interface OnrampSessionRequest {
  userId: string;
  /** The signed-in user's own wallet, EIP-55 checksummed. */
  walletAddress: string;
  asset: OnrampAsset;
  network: string;
  /** Normalised: a digit before any point. */
  amount: string;
  experience: OnrampExperience;
  /** The client's IP address, which Coinbase checks the buy page against. */
  clientIp: string;
}

/**
 * Where people pay: Coinbase Onramp in production, the sandbox checkout of this server in development and
 * tests. Both hand out a single-use session token for the buy link.
 */
export interface OnrampProvider {
  readonly name: 'coinbase' | 'sandbox';
  /** The buy link's `appId`. */
  readonly appId: string;
  /** The buy page the link opens. */
  readonly payUrl: string;
  /** Obtains a session token for one purchase. Never log it. */
  createSessionToken(request: OnrampSessionRequest): Promise<string>;
}
