import { DialError, sendTransactionWithFallback } from '@dial/core';
import { type Chain, numberToHex } from 'viem';
import { findWalletFor } from './findWalletFor';
import { rememberedWallet } from './rememberedWallet';
import { walletError } from './walletError';
import {
  PROVIDER_ERRORS,
  providerErrorCode,
  WALLETCONNECT_INFO,
  type WalletProvider,
} from './walletProvider';

/**
 * Sends a transaction from an account's own wallet (one Dial holds no key of): finds the wallet app of this
 * browser that holds `address`, switches it to `chain` when it is on another (adding the chain first when
 * the wallet does not know it), and asks it to send (`eth_sendTransaction`, else `wallet_sendTransaction`,
 * through core's `sendTransactionWithFallback`). The wallet asks the person to confirm.
 *
 * @throws {DialError} `wallet_not_found` (its message names the wallet app) when no wallet here holds the
 * address; `unsupported_chain` when the wallet cannot switch to `chain`; otherwise the wallet's own error,
 * unchanged (the caller reads its EIP-1193 code).
 */
export async function sendWithWallet(
  address: `0x${string}`,
  chain: Chain,
  transaction: Record<string, unknown>,
): Promise<`0x${string}`> {
  const wallet = await findWalletFor(address);
  if (wallet === null) throw unavailable(address);
  await switchChain(wallet.provider, chain);
  return sendTransactionWithFallback(wallet.provider, transaction);
}

/** Makes the wallet use `chain`; asks only when it is on another. */
export async function switchChain(provider: WalletProvider, chain: Chain): Promise<void> {
  const current = await provider.request({ method: 'eth_chainId' }).catch(() => undefined);
  const wanted = numberToHex(chain.id);
  if (typeof current === 'string' && current.toLowerCase() === wanted) return;
  try {
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: wanted }] });
  } catch (error) {
    const code = providerErrorCode(error);
    if (code === PROVIDER_ERRORS.userRejected) throw walletError(error);
    if (code === PROVIDER_ERRORS.unrecognizedChain && chain.rpcUrls.default.http.length > 0) {
      await addChain(provider, chain);
      return;
    }
    throw wrongNetwork(chain, error);
  }
}

async function addChain(provider: WalletProvider, chain: Chain): Promise<void> {
  try {
    await provider.request({
      method: 'wallet_addEthereumChain',
      params: [
        {
          chainId: numberToHex(chain.id),
          chainName: chain.name,
          nativeCurrency: chain.nativeCurrency,
          rpcUrls: chain.rpcUrls.default.http,
          ...(chain.blockExplorers?.default ? { blockExplorerUrls: [chain.blockExplorers.default.url] } : {}),
        },
      ],
    });
  } catch (error) {
    if (providerErrorCode(error) === PROVIDER_ERRORS.userRejected) throw walletError(error);
    throw wrongNetwork(chain, error);
  }
}

function wrongNetwork(chain: Chain, cause: unknown): DialError {
  return new DialError('unsupported_chain', {
    cause,
    message: `Your wallet is on another network and could not switch to ${chain.name}. Switch it to ${chain.name}, then try again.`,
  });
}

/** Why the wallet cannot be asked here, and what to do: `wallet_not_found` with a message naming it. */
function unavailable(address: string): DialError {
  const remembered = rememberedWallet(address);
  if (remembered?.rdns === WALLETCONNECT_INFO.rdns) {
    return new DialError('wallet_not_found', {
      message:
        'Your wallet is no longer connected: a WalletConnect connection ends when Dial is reloaded or closed. Sign in with it again through WalletConnect, then send.',
    });
  }
  const name = remembered?.name ?? 'the wallet you signed in with';
  return new DialError('wallet_not_found', {
    message: `${capitalise(name)} is not available in this browser. Open Dial in the browser with ${name}, or connect it.`,
  });
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
