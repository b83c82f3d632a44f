import { findChain } from '@dial/core';
import type { Chain } from 'viem';
import type { OnrampAssetCode, OnrampOffer } from '../api/types';

/**
 * The offer the add-funds form opens on: the first one (of `asset`, when given) whose funds land on the
 * network the wallet shows (`chainId`), else the first one (of `asset`).
 */
export function offerOn(
  offers: readonly OnrampOffer[],
  chainId: number,
  asset?: OnrampAssetCode,
): OnrampOffer | undefined {
  const candidates = asset === undefined ? offers : offers.filter((offer) => offer.asset === asset);
  return candidates.find((offer) => offer.chainId === chainId) ?? candidates[0];
}

/**
 * How an offer's network is named in the form: the wallet's name of the chain the funds land on, and the
 * provider's network when that is another one (the sandbox sells "Base" but credits the local chain:
 * `Local (Base in the sandbox)`).
 */
export function networkLabel(offer: OnrampOffer, chains: readonly Chain[]): string {
  const chain = offer.chainId === null ? undefined : findChain(chains, offer.chainId);
  if (chain === undefined || chain.name === offer.networkName) return offer.networkName;
  return `${chain.name} (${offer.networkName} in the sandbox)`;
}
