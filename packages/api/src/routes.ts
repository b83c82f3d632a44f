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
import { walletEventsRoute } from './events.js';
import { listNoticesRoute, markNoticesReadRoute } from './notices.js';
import { onrampSessionRoute } from './onramp.js';
import { pricesRoute } from './prices.js';
import { lookupRecipientRoute } from './recipients.js';
import { getRecoveryRoute, recoveryFailedRoute, recoveryOprfRoute } from './recovery.js';
import { siweNonceRoute, siweVerifyRoute } from './siwe.js';
import { configRoute, healthRoute, readyRoute } from './system.js';
import {
  getWalletRoute,
  registerWalletRoute,
  rotateSharesRoute,
  walletChallengeRoute,
  walletExportRoute,
} from './wallet.js';

/**
 * Every route of the contract. A server registers some of them only when their feature is on (the on-ramp,
 * the local chain, the dev outbox outside production).
 */
export const API_ROUTES: readonly ApiRoute[] = [
  healthRoute,
  readyRoute,
  configRoute,
  otpStartRoute,
  otpVerifyRoute,
  siweNonceRoute,
  siweVerifyRoute,
  linkWalletNonceRoute,
  linkWalletRoute,
  meRoute,
  logoutRoute,
  reauthStartRoute,
  reauthVerifyRoute,
  listMethodsRoute,
  linkCodeStartRoute,
  linkCodeVerifyRoute,
  updateMethodRoute,
  removeMethodRoute,
  useWalletRoute,
  accountProofRoute,
  listAccountChangesRoute,
  cancelAccountChangeRoute,
  secureAccountRoute,
  listSessionsRoute,
  endSessionRoute,
  endOtherSessionsRoute,
  logoutEverywhereRoute,
  listBrowsersRoute,
  forgetBrowserRoute,
  listNoticesRoute,
  markNoticesReadRoute,
  walletChallengeRoute,
  registerWalletRoute,
  getWalletRoute,
  rotateSharesRoute,
  walletExportRoute,
  getRecoveryRoute,
  recoveryFailedRoute,
  recoveryOprfRoute,
  lookupRecipientRoute,
  recordTransferRoute,
  checkTransferRoute,
  listActivityRoute,
  walletEventsRoute,
  onrampSessionRoute,
  pricesRoute,
  outboxRoute,
  faucetRoute,
  localChainRoute,
];
