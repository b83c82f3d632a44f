/**
 * The proof of work a browser does before a sign-in code is sent past the free codes of a number or address
 * (ALTCHA, PBKDF2-SHA256 in deterministic mode): the server picks a secret counter in
 * `[counterMin, counterMax]`, and the browser derives keys for counters from 0 until it finds it.
 */
export interface ProofOfWorkPolicy {
  /** PBKDF2 iterations per counter tried. */
  cost: number;
  counterMin: number;
  counterMax: number;
  /** How long a challenge can be solved and used; each is accepted once. */
  ttlSeconds: number;
}

/**
 * How long one-time codes live, how often they may be tried and how hard the proof of work is. The rate
 * limits around codes (how many a number, a browser or an IP address gets) are in the one table of rate
 * limits, `config/rateLimits.ts`.
 */
export interface OtpPolicy {
  /** How long a code works (600 s): the code's row, the routes' `expiresInSeconds` and the message's text. */
  codeTtlSeconds: number;
  /** Wrong tries that kill a code: the last of them already answers `code_attempts_exceeded`. */
  maxAttempts: number;
  /** The least time between two codes for one browser and one number or address. */
  resendCooldownSeconds: number;
  proofOfWork: ProofOfWorkPolicy;
}

/** The defaults: 10-minute codes, 5 tries, 30 s between codes. */
export const DEFAULT_OTP_POLICY: OtpPolicy = Object.freeze({
  codeTtlSeconds: 600,
  maxAttempts: 5,
  resendCooldownSeconds: 30,
  // About 350 counters of 5,000 PBKDF2-SHA256 iterations: a second or two in a phone's browser.
  proofOfWork: { cost: 5_000, counterMin: 100, counterMax: 600, ttlSeconds: 300 },
});
