import type { ChangeOutcome } from '../account/makeAccountChange';
import { isPendingAnswer, makeAccountChange } from '../account/makeAccountChange';
import type { ProveOptions } from '../account/proveAccountChange';
import type { SignInMethod } from '../api/types';
import type { WalletSignInStep } from '../connect/signSiweMessage';
import type { WalletProvider } from '../connect/walletProvider';
import { getLinkWalletNonce, linkWallet } from './accountApi';

/**
 * Links a wallet the person already has to the signed-in account `userId`: the wallet signs a Sign-In with
 * Ethereum message carrying a link nonce bound to this session, and the server links the address that
 * signed it: at once with the account key's proof (this browser's device share, or the account's own
 * wallet), else after the cooling-off period. The SIWE code (viem's) is loaded only now.
 *
 * @throws {DialError} `user_rejected` when the person declines in the wallet, a SIWE refusal, or
 * `method_taken` (another account's wallet), `method_already_linked`, `methods_limit_reached`.
 */
export async function linkWalletMethod(
  userId: string,
  provider: WalletProvider,
  onStep: (step: WalletSignInStep) => void,
  options?: ProveOptions,
): Promise<ChangeOutcome<SignInMethod>> {
  const { signSiweMessage } = await import('../connect/signSiweMessage');
  const { message, signature, address } = await signSiweMessage(provider, getLinkWalletNonce, onStep);
  onStep('verifying');
  return makeAccountChange(
    userId,
    { action: 'link-method', kind: 'wallet', value: address },
    async (proof) => {
      const answer = await linkWallet(message, signature, proof);
      return isPendingAnswer(answer) ? answer : answer.method;
    },
    options,
  );
}
