/**
 * The wallet screen is its own chunk: it brings viem and the key-share code, which the sign-in screen
 * must not wait for. Calling this early (while the code is being typed) fetches the chunk ahead of time.
 */
export function loadWalletScreen() {
  return import('./WalletScreen');
}
