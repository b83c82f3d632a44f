import type { WalletInfo } from './walletProvider';

const KEY = 'dial.walletApp.';

/** Which wallet app an address was signed in with here, to find it again and to name it. */
export interface RememberedWallet {
  name: string;
  rdns: string;
}

/** Remembers the wallet app of `address` in this browser (its name and rdns only; no key, nothing secret). */
export function rememberWallet(address: string, info: Pick<WalletInfo, 'name' | 'rdns'>): void {
  try {
    localStorage.setItem(KEY + address.toLowerCase(), JSON.stringify({ name: info.name, rdns: info.rdns }));
  } catch {
    // Storage full or refused: the wallet is then found by its accounts alone, and named "your wallet".
  }
}

/** The wallet app `address` was signed in with in this browser, or null when unknown. */
export function rememberedWallet(address: string): RememberedWallet | null {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY + address.toLowerCase()) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { name, rdns } = value as Record<string, unknown>;
    return typeof name === 'string' && typeof rdns === 'string' ? { name, rdns } : null;
  } catch {
    return null;
  }
}
