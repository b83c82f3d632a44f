import type { WindowLimit } from '../auth/otpPolicy.js';

/** Session tokens one user may ask for: 10 per 10 minutes (each is a purchase started). */
export const SESSIONS_PER_USER: WindowLimit = { max: 10, windowSeconds: 600 };
/** Session tokens asked from one IP address: 30 per 10 minutes. */
export const SESSIONS_PER_IP: WindowLimit = { max: 30, windowSeconds: 600 };
/** Sandbox checkout payments tried from one IP address: 30 per 10 minutes. */
export const SANDBOX_PAYMENTS_PER_IP: WindowLimit = { max: 30, windowSeconds: 600 };

/** The largest sandbox purchase: what the local faucet can spare many times over. */
export const SANDBOX_MAX_AMOUNT = { USDC: 10_000, native: 10 } as const;
