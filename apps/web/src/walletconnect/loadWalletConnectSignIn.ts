/**
 * The WalletConnect sign-in is its own chunk (WalletConnect's SDK weighs more than the whole first visit):
 * load it only when the person picks "WalletConnect", e.g. `const WalletConnectSignIn = lazy(loadWalletConnectSignIn)`.
 */
export function loadWalletConnectSignIn() {
  return import('./WalletConnectSignIn').then((module) => ({ default: module.WalletConnectSignIn }));
}
