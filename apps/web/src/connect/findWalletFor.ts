import { connectedWallet } from './connectedWallets';
import { discoverWallets, injectedWallet } from './discoverWallets';
import { rememberedWallet } from './rememberedWallet';
import type { DiscoveredWallet, WalletProvider } from './walletProvider';

/** How long wallets have to announce themselves, and each to answer `eth_accounts`. */
const ANNOUNCE_WAIT_MS = 600;
const ACCOUNTS_WAIT_MS = 3000;

/**
 * The wallet of this browser that holds `address` (after a reload too): a wallet connected in this page for
 * it (WalletConnect) if there is one; else the wallets that announce themselves (EIP-6963) and the injected
 * `window.ethereum` are asked `eth_accounts` (which never opens a prompt), the one remembered for this
 * address first; the first that lists the address is the one. Null when none does within a moment (the
 * wallet app is not in this browser, or locked).
 */
export async function findWalletFor(
  address: string,
  target: EventTarget = window,
  waitMs: number = ANNOUNCE_WAIT_MS,
): Promise<DiscoveredWallet | null> {
  const kept = connectedWallet(address);
  if (kept !== undefined) return kept;
  const wanted = address.toLowerCase();
  const remembered = rememberedWallet(address);
  const asked = new Set<WalletProvider>();

  return new Promise((resolve) => {
    let pending = 0;
    let waited = false;
    let done = false;
    const finish = (wallet: DiscoveredWallet | null) => {
      if (done) return;
      done = true;
      stop();
      clearTimeout(timer);
      resolve(wallet);
    };
    const settleIfNothingLeft = () => {
      if (waited && pending === 0) finish(null);
    };
    const ask = (wallet: DiscoveredWallet) => {
      if (done || asked.has(wallet.provider)) return;
      asked.add(wallet.provider);
      pending++;
      holdsAddress(wallet.provider, wanted).then((holds) => {
        pending--;
        if (holds) finish(wallet);
        else settleIfNothingLeft();
      });
    };
    // The wallets already loaded all announce at once (answering the request): they are asked together,
    // the one this address signed in with first, in case several hold it.
    let latest: readonly DiscoveredWallet[] = [];
    let flushing = false;
    const consider = (wallets: readonly DiscoveredWallet[]) => {
      latest = wallets;
      if (flushing) return;
      flushing = true;
      queueMicrotask(() => {
        flushing = false;
        const ordered = [...latest].sort((a, b) => Number(isRemembered(b)) - Number(isRemembered(a)));
        for (const wallet of ordered) ask(wallet);
      });
    };
    const isRemembered = (wallet: DiscoveredWallet) =>
      remembered !== null && remembered.rdns !== '' && wallet.info.rdns === remembered.rdns;

    const stop = discoverWallets(target, consider);
    const timer = setTimeout(() => {
      waited = true;
      const injected = injectedWallet(target);
      if (injected !== null) ask(injected);
      settleIfNothingLeft();
    }, waitMs);
  });
}

async function holdsAddress(provider: WalletProvider, wanted: string): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<unknown>((resolve) => {
    timer = setTimeout(() => resolve([]), ACCOUNTS_WAIT_MS);
  });
  try {
    const accounts = await Promise.race([provider.request({ method: 'eth_accounts' }), timeout]);
    return (
      Array.isArray(accounts) &&
      accounts.some((account) => typeof account === 'string' && account.toLowerCase() === wanted)
    );
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
