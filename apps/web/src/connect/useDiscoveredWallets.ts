import { useEffect, useState } from 'react';
import { discoverWallets, injectedWallet } from './discoverWallets';
import type { DiscoveredWallet } from './walletProvider';

/**
 * The wallets of this browser, for the sign-in screen: those that announced themselves (EIP-6963), or, while
 * none has, the plain injected `window.ethereum` as "Browser wallet" when there is one.
 */
export function useDiscoveredWallets(): readonly DiscoveredWallet[] {
  const [announced, setAnnounced] = useState<readonly DiscoveredWallet[]>([]);
  const [injected, setInjected] = useState<DiscoveredWallet | null>(null);
  useEffect(() => {
    setInjected(injectedWallet(window));
    return discoverWallets(window, setAnnounced);
  }, []);
  if (announced.length > 0) return announced;
  return injected === null ? [] : [injected];
}
