// @dial/wcrelay: WalletConnect without the internet, for tests only. A stand-in for WalletConnect's relay on
// loopback that checks what it is sent, and a wallet driven by WalletConnect's own SDK.
export {
  checkPublishTtl,
  PUBLISH_RULES,
  type PublishRule,
  SESSION_REQUEST_TTL,
  SESSION_SETUP_TTL,
} from './publishRules.js';
export { didKeyOf, type RelayAuthClaims, RelayAuthError, readDidKey, verifyRelayAuth } from './relayAuth.js';
export {
  type RelayConnection,
  type RelayRefusal,
  type RelayRequest,
  type RelayStandIn,
  type StartRelayStandInOptions,
  startRelayStandIn,
} from './relayStandIn.js';
export {
  type StartTestWalletOptions,
  startTestWallet,
  type TestWallet,
  type TestWalletRequest,
} from './testWallet.js';
