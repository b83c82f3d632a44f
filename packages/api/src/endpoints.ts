// Each route's method and URL, once, with nothing else: the route files spread them into `defineRoute`, and
// the web app's client imports this module at run time (`@dial/api/endpoints`), so it sends each request to
// the contract's URL without loading TypeBox or a schema.

/** The HTTP methods Dial's API routes answer. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH';

/**
 * Every route's method and URL (Fastify's form: `/api/activity/:id`), by the route's name: the name of its
 * `…Route` export without `Route` (`meRoute` is `me`). `ROUTES` (routes.ts) holds the routes by the same names.
 */
export const ENDPOINTS = {
  health: { method: 'GET', url: '/api/health' },
  ready: { method: 'GET', url: '/api/ready' },
  config: { method: 'GET', url: '/api/config' },
  otpStart: { method: 'POST', url: '/api/auth/otp/start' },
  otpVerify: { method: 'POST', url: '/api/auth/otp/verify' },
  siweNonce: { method: 'POST', url: '/api/auth/siwe/nonce' },
  siweVerify: { method: 'POST', url: '/api/auth/siwe/verify' },
  passkeySignUpOptions: { method: 'POST', url: '/api/auth/passkey/sign-up/options' },
  passkeySignUp: { method: 'POST', url: '/api/auth/passkey/sign-up' },
  passkeySignInOptions: { method: 'POST', url: '/api/auth/passkey/sign-in/options' },
  passkeySignIn: { method: 'POST', url: '/api/auth/passkey/sign-in' },
  linkPasskeyOptions: { method: 'POST', url: '/api/auth/methods/passkey/options' },
  linkPasskey: { method: 'POST', url: '/api/auth/methods/passkey' },
  linkWalletNonce: { method: 'POST', url: '/api/auth/methods/wallet/nonce' },
  linkWallet: { method: 'POST', url: '/api/auth/methods/wallet' },
  me: { method: 'GET', url: '/api/me' },
  logout: { method: 'POST', url: '/api/auth/logout' },
  reauthStart: { method: 'POST', url: '/api/auth/reauth/start' },
  reauthVerify: { method: 'POST', url: '/api/auth/reauth/verify' },
  listMethods: { method: 'GET', url: '/api/auth/methods' },
  linkCodeStart: { method: 'POST', url: '/api/auth/methods/code' },
  linkCodeVerify: { method: 'POST', url: '/api/auth/methods/code/verify' },
  updateMethod: { method: 'PATCH', url: '/api/auth/methods/:id' },
  removeMethod: { method: 'POST', url: '/api/auth/methods/:id/remove' },
  useWallet: { method: 'POST', url: '/api/auth/methods/:id/use-wallet' },
  accountProof: { method: 'POST', url: '/api/account/proof' },
  listAccountChanges: { method: 'GET', url: '/api/account/changes' },
  cancelAccountChange: { method: 'POST', url: '/api/account/changes/:id/cancel' },
  secureAccount: { method: 'POST', url: '/api/account/secure' },
  listSessions: { method: 'GET', url: '/api/auth/sessions' },
  endSession: { method: 'POST', url: '/api/auth/sessions/:id/end' },
  endOtherSessions: { method: 'POST', url: '/api/auth/sessions/end-others' },
  logoutEverywhere: { method: 'POST', url: '/api/auth/logout/everywhere' },
  listBrowsers: { method: 'GET', url: '/api/auth/browsers' },
  forgetBrowser: { method: 'POST', url: '/api/auth/browsers/:id/forget' },
  listNotices: { method: 'GET', url: '/api/account/notices' },
  markNoticesRead: { method: 'POST', url: '/api/account/notices/read' },
  walletChallenge: { method: 'POST', url: '/api/wallet/challenge' },
  registerWallet: { method: 'POST', url: '/api/wallet' },
  getWallet: { method: 'GET', url: '/api/wallet' },
  rotateShares: { method: 'PUT', url: '/api/wallet/shares' },
  walletExport: { method: 'POST', url: '/api/wallet/export' },
  getRecovery: { method: 'GET', url: '/api/wallet/recovery' },
  recoveryFailed: { method: 'POST', url: '/api/wallet/recovery/failed' },
  recoveryOprf: { method: 'POST', url: '/api/wallet/recovery/oprf' },
  listDevices: { method: 'GET', url: '/api/wallet/devices' },
  enrollDevice: { method: 'POST', url: '/api/wallet/devices' },
  unlockDevice: { method: 'POST', url: '/api/wallet/devices/:id/unlock' },
  removeDevice: { method: 'POST', url: '/api/wallet/devices/:id/remove' },
  createDeviceLink: { method: 'POST', url: '/api/wallet/links' },
  claimDeviceLink: { method: 'POST', url: '/api/wallet/links/claim' },
  getDeviceLink: { method: 'GET', url: '/api/wallet/links/:id' },
  confirmDeviceLink: { method: 'POST', url: '/api/wallet/links/:id/confirm' },
  cancelDeviceLink: { method: 'POST', url: '/api/wallet/links/:id/cancel' },
  lookupRecipient: { method: 'GET', url: '/api/users/lookup' },
  recordTransfer: { method: 'POST', url: '/api/activity' },
  checkTransfer: { method: 'PATCH', url: '/api/activity/:id' },
  listActivity: { method: 'GET', url: '/api/activity' },
  walletEvents: { method: 'GET', url: '/api/events' },
  onrampSession: { method: 'POST', url: '/api/onramp/session' },
  prices: { method: 'GET', url: '/api/prices' },
  walletFees: { method: 'GET', url: '/api/wallet/fees' },
  paymaster: { method: 'POST', url: '/api/paymaster' },
  bundler: { method: 'POST', url: '/api/bundler/:chainId' },
  sponsorshipReport: { method: 'GET', url: '/api/admin/sponsorships' },
  outbox: { method: 'GET', url: '/dev/outbox.json' },
  faucet: { method: 'POST', url: '/api/dev/faucet' },
  localChain: { method: 'POST', url: '/api/dev/chain' },
} as const satisfies Record<string, { readonly method: RouteMethod; readonly url: string }>;

/** A route's name: a key of {@link ENDPOINTS} and of `ROUTES`. */
export type RouteName = keyof typeof ENDPOINTS;
