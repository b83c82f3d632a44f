import { lazy, useState } from 'react';
import { loadedWalletScreen, loadWalletScreen } from './loadWalletScreen';
import type { WalletScreenProps } from './WalletScreen';

const LazyWalletScreen = lazy(loadWalletScreen);

/**
 * The wallet screen, from the main chunk: its own chunk's component directly when that has loaded already
 * (preloaded while the code was typed, or at start on a return visit), so the screen opens in the same render
 * as sign-in ends, with no placeholder; else the lazy component, under the caller's `Suspense`.
 */
export function WalletScreenEntry(props: WalletScreenProps) {
  // Chosen once per mount: switching from the lazy component to the loaded one later would remount the
  // screen and lose its state.
  const [Screen] = useState(() => loadedWalletScreen() ?? LazyWalletScreen);
  return <Screen {...props} />;
}
