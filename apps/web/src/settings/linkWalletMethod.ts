import type { SignInMethod } from '../api/types';
import type { WalletSignInStep } from '../connect/signSiweMessage';
import type { WalletProvider } from '../connect/walletProvider';
import { getLinkWalletNonce, linkWallet } from './accountApi';

/**
 * Links a wallet the person already has to the signed-in account: the wallet signs a Sign-In with Ethereum
 * message carrying a link nonce bound to this session, and the server links the address that signed it.
 * The SIWE code (viem's) is loaded only now.
 *
 * @throws {DialError} `user_rejected` when the person declines in the wallet, a SIWE refusal, or
 * `method_taken` (another account's wallet), `method_already_linked`, `methods_limit_reached`.
 */
export async function linkWalletMethod(
  provider: WalletProvider,
  onStep: (step: WalletSignInStep) => void,
): Promise<SignInMethod> {
  const { signSiweMessage } = await import('../connect/signSiweMessage');
  const { message, signature } = await signSiweMessage(provider, getLinkWalletNonce, onStep);
  onStep('verifying');
  return linkWallet(message, signature);
}
