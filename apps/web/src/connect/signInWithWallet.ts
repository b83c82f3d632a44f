import type { SiweNonce } from '@dial/api';
import { MINUTE_MS } from '@dial/core';
import { signSiweMessage, type WalletSignInStep } from './signSiweMessage';
import { getSiweNonce, verifySiwe } from './siweApi';
import type { WalletProvider } from './walletProvider';

export type { WalletSignInStep } from './signSiweMessage';

/** A nonce fetched earlier is used only with this much time left: signing may take the person a while. */
const NONCE_MARGIN_MS = MINUTE_MS;

export interface WalletSignInResult {
  verified: Awaited<ReturnType<typeof verifySiwe>>;
  address: `0x${string}`;
}

/**
 * Signs in with a wallet the person already has (Sign-In with Ethereum, EIP-4361): the wallet signs a
 * message carrying a sign-in nonce bound to this browser ({@link signSiweMessage}), and the server checks
 * it, which starts the session.
 *
 * `known` is an account and chain already connected (WalletConnect gives them): then the wallet is not asked
 * for them again; and a nonce fetched before connecting (for its chain ids), used while it has a minute
 * left. This module is loaded only once the person picks a wallet (it brings viem's SIWE code).
 *
 * @throws {DialError} as `signSiweMessage` does, or the verify route's error.
 */
export async function signInWithWallet(
  provider: WalletProvider,
  onStep: (step: WalletSignInStep) => void,
  known?: { address: string; chainId?: number; nonce?: SiweNonce },
): Promise<WalletSignInResult> {
  const early = known?.nonce;
  const getNonce = () =>
    early !== undefined && Date.parse(early.expiresAt) - Date.now() > NONCE_MARGIN_MS
      ? Promise.resolve(early)
      : getSiweNonce();
  const { message, signature, address } = await signSiweMessage(provider, getNonce, onStep, known);
  onStep('verifying');
  const verified = await verifySiwe(message, signature);
  return { verified, address };
}
