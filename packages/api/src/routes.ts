import {
  endOtherSessionsRoute,
  endSessionRoute,
  linkCodeStartRoute,
  linkCodeVerifyRoute,
  linkWalletNonceRoute,
  linkWalletRoute,
  listMethodsRoute,
  listSessionsRoute,
  logoutEverywhereRoute,
  removeMethodRoute,
  updateMethodRoute,
  useWalletRoute,
} from './account.js';
import {
  accountProofRoute,
  cancelAccountChangeRoute,
  listAccountChangesRoute,
  secureAccountRoute,
} from './accountChanges.js';
import { checkTransferRoute, listActivityRoute, recordTransferRoute } from './activity.js';
import {
  logoutRoute,
  meRoute,
  otpStartRoute,
  otpVerifyRoute,
  reauthStartRoute,
  reauthVerifyRoute,
} from './auth.js';
import { forgetBrowserRoute, listBrowsersRoute } from './browsers.js';
import type { ApiRoute } from './defineRoute.js';
import { faucetRoute, localChainRoute, outboxRoute } from './dev.js';
import {
  cancelDeviceLinkRoute,
  claimDeviceLinkRoute,
  confirmDeviceLinkRoute,
  createDeviceLinkRoute,
  enrollDeviceRoute,
  getDeviceLinkRoute,
  listDevicesRoute,
  removeDeviceRoute,
  unlockDeviceRoute,
} from './devices.js';
import type { ENDPOINTS, RouteName } from './endpoints.js';
import { walletEventsRoute } from './events.js';
import { listNoticesRoute, markNoticesReadRoute } from './notices.js';
import { onrampSessionRoute } from './onramp.js';
import {
  linkPasskeyOptionsRoute,
  linkPasskeyRoute,
  passkeySignInOptionsRoute,
  passkeySignInRoute,
  passkeySignUpOptionsRoute,
  passkeySignUpRoute,
} from './passkeys.js';
import { pricesRoute } from './prices.js';
import { lookupRecipientRoute } from './recipients.js';
import { getRecoveryRoute, recoveryFailedRoute, recoveryOprfRoute } from './recovery.js';
import { siweNonceRoute, siweVerifyRoute } from './siwe.js';
import { bundlerRoute, paymasterRoute, sponsorshipReportRoute, walletFeesRoute } from './sponsorship.js';
import { configRoute, healthRoute, readyRoute } from './system.js';
import {
  getWalletRoute,
  registerWalletRoute,
  rotateSharesRoute,
  walletChallengeRoute,
  walletExportRoute,
} from './wallet.js';

/**
 * Every route of the contract by its name (the name of its `…Route` export without `Route`), the names of
 * `ENDPOINTS` (endpoints.ts), whose method and URL each route spreads: the type checks that each name holds
 * the route of its endpoint. A server registers some of them only when their feature is on (the on-ramp, the
 * local chain, the dev outbox outside production). Clients take its type only (`ApiRoutes`).
 */
export const ROUTES = {
  health: healthRoute,
  ready: readyRoute,
  config: configRoute,
  otpStart: otpStartRoute,
  otpVerify: otpVerifyRoute,
  siweNonce: siweNonceRoute,
  siweVerify: siweVerifyRoute,
  passkeySignUpOptions: passkeySignUpOptionsRoute,
  passkeySignUp: passkeySignUpRoute,
  passkeySignInOptions: passkeySignInOptionsRoute,
  passkeySignIn: passkeySignInRoute,
  linkPasskeyOptions: linkPasskeyOptionsRoute,
  linkPasskey: linkPasskeyRoute,
  linkWalletNonce: linkWalletNonceRoute,
  linkWallet: linkWalletRoute,
  me: meRoute,
  logout: logoutRoute,
  reauthStart: reauthStartRoute,
  reauthVerify: reauthVerifyRoute,
  listMethods: listMethodsRoute,
  linkCodeStart: linkCodeStartRoute,
  linkCodeVerify: linkCodeVerifyRoute,
  updateMethod: updateMethodRoute,
  removeMethod: removeMethodRoute,
  useWallet: useWalletRoute,
  accountProof: accountProofRoute,
  listAccountChanges: listAccountChangesRoute,
  cancelAccountChange: cancelAccountChangeRoute,
  secureAccount: secureAccountRoute,
  listSessions: listSessionsRoute,
  endSession: endSessionRoute,
  endOtherSessions: endOtherSessionsRoute,
  logoutEverywhere: logoutEverywhereRoute,
  listBrowsers: listBrowsersRoute,
  forgetBrowser: forgetBrowserRoute,
  listNotices: listNoticesRoute,
  markNoticesRead: markNoticesReadRoute,
  walletChallenge: walletChallengeRoute,
  registerWallet: registerWalletRoute,
  getWallet: getWalletRoute,
  rotateShares: rotateSharesRoute,
  walletExport: walletExportRoute,
  getRecovery: getRecoveryRoute,
  recoveryFailed: recoveryFailedRoute,
  recoveryOprf: recoveryOprfRoute,
  listDevices: listDevicesRoute,
  enrollDevice: enrollDeviceRoute,
  unlockDevice: unlockDeviceRoute,
  removeDevice: removeDeviceRoute,
  createDeviceLink: createDeviceLinkRoute,
  claimDeviceLink: claimDeviceLinkRoute,
  getDeviceLink: getDeviceLinkRoute,
  confirmDeviceLink: confirmDeviceLinkRoute,
  cancelDeviceLink: cancelDeviceLinkRoute,
  lookupRecipient: lookupRecipientRoute,
  recordTransfer: recordTransferRoute,
  checkTransfer: checkTransferRoute,
  listActivity: listActivityRoute,
  walletEvents: walletEventsRoute,
  onrampSession: onrampSessionRoute,
  prices: pricesRoute,
  walletFees: walletFeesRoute,
  paymaster: paymasterRoute,
  bundler: bundlerRoute,
  sponsorshipReport: sponsorshipReportRoute,
  outbox: outboxRoute,
  faucet: faucetRoute,
  localChain: localChainRoute,
} as const satisfies { readonly [N in RouteName]: ApiRoute & (typeof ENDPOINTS)[N] };

/** The type of {@link ROUTES}: what a client derives each call's request, answer and error codes from. */
export type ApiRoutes = typeof ROUTES;

/** Every route of the contract, in the order of {@link ROUTES}. */
export const API_ROUTES: readonly ApiRoute[] = Object.values(ROUTES);
