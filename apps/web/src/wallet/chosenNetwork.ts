import type { Chain } from 'viem';

const KEY = 'dial.network';

/**
 * The network picked on the wallet home, kept in this tab so a reload (of `/receive`, say) shows the same one.
 * Null when none was picked here or it is no longer offered.
 */
export function readChosenNetwork(chains: readonly Chain[]): number | null {
  try {
    const id = Number(sessionStorage.getItem(KEY));
    return chains.some((chain) => chain.id === id) ? id : null;
  } catch {
    return null;
  }
}

/** Keeps the picked network for this tab. */
export function saveChosenNetwork(chainId: number): void {
  try {
    sessionStorage.setItem(KEY, String(chainId));
  } catch {
    // Storage refused: a reload shows the default network.
  }
}
