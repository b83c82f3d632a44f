import type { DiscoveredWallet } from './walletProvider';

/**
 * Wallets connected in this page that no announcement finds again (a WalletConnect session: it lives in
 * memory, until the page is closed or reloaded), by the address they signed in with.
 */
const connected = new Map<string, DiscoveredWallet>();

/** Keeps `wallet` as the way to reach `address` for as long as this page lives. */
export function keepConnectedWallet(address: string, wallet: DiscoveredWallet): void {
  connected.set(address.toLowerCase(), wallet);
}

/** The wallet kept for `address` in this page, or undefined. */
export function connectedWallet(address: string): DiscoveredWallet | undefined {
  return connected.get(address.toLowerCase());
}
