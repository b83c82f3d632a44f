import { PROVIDER_ERRORS, type WalletProvider } from '../connect/walletProvider';
import type { WalletConnectConnection } from './connectWithWalletConnect';

/**
 * A WalletConnect connection as the EIP-1193 provider Dial's wallet code expects of a browser wallet (sign-in,
 * and sending through `sendWithWallet`, which first asks `eth_chainId` and switches when needed). A
 * WalletConnect session has no current chain on the wallet's side — the dapp names the chain in each
 * request — so the chain is kept here: `eth_chainId` answers it (at first `connection.chainId`),
 * `wallet_switchEthereumChain` moves it among the chains the wallet approved (another one: 4901, chain
 * disconnected), `eth_accounts` and `eth_requestAccounts` answer the connection's address, and every other
 * request goes to the wallet on the current chain. Nothing here brings a library: it is in the sign-in
 * screen's first-visit code.
 *
 * @example
 * const provider = walletConnectProvider(connection);
 * await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x2105' }] });
 * await provider.request({ method: 'eth_sendTransaction', params: [transaction] }); // on chain 8453
 */
export function walletConnectProvider(connection: WalletConnectConnection): WalletProvider {
  let chainId = connection.chainId;
  return {
    async request({ method, params }) {
      switch (method) {
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`;
        case 'eth_accounts':
        case 'eth_requestAccounts':
          return [connection.address];
        case 'wallet_switchEthereumChain': {
          const wanted = Number((Array.isArray(params) ? params[0] : undefined)?.chainId);
          if (!connection.chainIds.includes(wanted)) {
            throw Object.assign(new Error(`The wallet did not approve chain ${String(wanted)}.`), {
              code: PROVIDER_ERRORS.chainDisconnected,
            });
          }
          chainId = wanted;
          return null;
        }
        default:
          return connection.request({ method, params, chainId });
      }
    },
  };
}
