/**
 * The shapes of a wallet the browser offers (EIP-1193 provider, EIP-6963 announcement). Types and tiny
 * helpers only: this file is in the sign-in screen's first-visit code, so it brings no library.
 */

/** An EIP-1193 provider: all Dial asks of a wallet is `request`. */
export interface WalletProvider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

/** What a wallet says about itself (EIP-6963 `info`), checked: see `readAnnouncement`. */
export interface WalletInfo {
  /** Unique per announcement source (a UUIDv4 by the standard; only compared here). */
  uuid: string;
  name: string;
  /** A `data:image/…` URI, or null when the wallet gave none or something else (never fetched). */
  icon: string | null;
  /** Reverse-DNS id (`io.metamask`); empty for the plain injected provider. */
  rdns: string;
}

/** A wallet found in this browser. */
export interface DiscoveredWallet {
  info: WalletInfo;
  provider: WalletProvider;
}

/** How a wallet connected through WalletConnect is named (its `rdns` tells it apart when remembered). */
export const WALLETCONNECT_INFO: WalletInfo = {
  uuid: 'walletconnect',
  name: 'WalletConnect',
  icon: null,
  rdns: 'walletconnect',
};

/** The error codes of EIP-1193 and JSON-RPC that Dial reads from wallets. */
export const PROVIDER_ERRORS = {
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  disconnected: 4900,
  chainDisconnected: 4901,
  /** `wallet_switchEthereumChain`: the wallet does not know the chain (add it first). */
  unrecognizedChain: 4902,
  /** MetaMask and others: a request of this kind is already waiting for the person. */
  requestPending: -32002,
} as const;

/** The EIP-1193 code of a provider's error, if it has a numeric one. */
export function providerErrorCode(error: unknown): number | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? code : undefined;
}
