/** How long a wallet connection (a WalletConnect session) lasts before it must be approved again: 7 days. */
export const WALLET_SESSION_TTL_SECONDS = 604_800;

/** How long a connection proposal waits for the person to approve it: 5 minutes. */
export const WALLET_PROPOSAL_TTL_SECONDS = 300;

/** The shortest time a dapp's request (e.g. a signature) may wait for an answer: 5 minutes. */
export const MIN_REQUEST_EXPIRY_SECONDS = 300;

/** The longest time a dapp's request may wait for an answer: 7 days. */
export const MAX_REQUEST_EXPIRY_SECONDS = 604_800;

/**
 * Brings the expiry a dapp asks for a request into the range Dial allows, in whole seconds (fractions are
 * dropped).
 *
 * @param seconds - The requested expiry in seconds; `undefined` or `NaN` when the dapp gave none.
 * @returns The expiry, from {@link MIN_REQUEST_EXPIRY_SECONDS} to {@link MAX_REQUEST_EXPIRY_SECONDS};
 * the minimum when `seconds` is `undefined` or `NaN`.
 *
 * @example
 * ```ts
 * clampRequestExpiry(60); // 300
 * clampRequestExpiry(3600); // 3600
 * clampRequestExpiry(undefined); // 300
 * ```
 */
export function clampRequestExpiry(seconds: number | undefined): number {
  if (typeof seconds !== 'number' || Number.isNaN(seconds)) return MIN_REQUEST_EXPIRY_SECONDS;
  return Math.floor(Math.min(MAX_REQUEST_EXPIRY_SECONDS, Math.max(MIN_REQUEST_EXPIRY_SECONDS, seconds)));
}
