/** A fixed-window limit: at most `max` events per `windowSeconds`. */
export interface WindowLimit {
  max: number;
  windowSeconds: number;
}

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
 * How long one-time codes live, how often they may be tried, and the rate limits around them. Codes are
 * kept per purpose (sign-in, re-authentication) and per browser (the `dial_device` cookie), so each
 * limit below says whose requests share it.
 */
export interface OtpPolicy {
  /** How long a code works (600 s: the web app and the message text say 10 minutes). */
  codeTtlSeconds: number;
  /** Wrong tries that kill a code: the last of them already answers `code_attempts_exceeded`. */
  maxAttempts: number;
  /** The least time between two codes for one browser and one number or address. */
  resendCooldownSeconds: number;
  /**
   * Sign-in codes sent to one number or address for browsers its account has not signed in from, before
   * each further one needs a proof of work (`proof_of_work_required`).
   */
  freeCodesPerIdentifier: WindowLimit;
  /**
   * The hard cap on sign-in codes to one number or address for browsers its account has not signed in
   * from, proof of work or not: it bounds SMS pumping, and brute force at `maxAttempts` tries a code.
   */
  codesPerIdentifier: WindowLimit;
  /** The same hard cap over a day, so that brute force cannot go on at the hourly cap day after day. */
  codesPerIdentifierPerDay: WindowLimit;
  /**
   * Sign-in codes for one browser the account has signed in from before (a known browser): a budget of its
   * own, which a flood from other browsers does not use up.
   */
  codesPerKnownDevice: WindowLimit;
  /** Re-authentication codes for one signed-in user (a budget apart from sign-in codes). */
  reauthCodesPerUser: WindowLimit;
  /** `otp/start` and `reauth/start` requests from one IP address. */
  startsPerIp: WindowLimit;
  /** `otp/verify` and `reauth/verify` requests from one IP address. */
  verifiesPerIp: WindowLimit;
  /** Verify requests for one purpose, number or address and browser. */
  verifiesPerDevice: WindowLimit;
  proofOfWork: ProofOfWorkPolicy;
}

const HOUR = 3600;

/**
 * The defaults: 10-minute codes, 5 tries, 30 s between codes; for a number or address, 3 codes an hour to
 * browsers it has not signed in from, then up to 10 an hour (30 a day) each after a proof of work, while
 * each browser it has signed in from keeps 5 an hour of its own.
 */
export const DEFAULT_OTP_POLICY: OtpPolicy = Object.freeze({
  codeTtlSeconds: 600,
  maxAttempts: 5,
  resendCooldownSeconds: 30,
  freeCodesPerIdentifier: { max: 3, windowSeconds: HOUR },
  codesPerIdentifier: { max: 10, windowSeconds: HOUR },
  codesPerIdentifierPerDay: { max: 30, windowSeconds: 24 * HOUR },
  codesPerKnownDevice: { max: 5, windowSeconds: HOUR },
  reauthCodesPerUser: { max: 5, windowSeconds: HOUR },
  startsPerIp: { max: 20, windowSeconds: HOUR },
  verifiesPerIp: { max: 30, windowSeconds: 600 },
  verifiesPerDevice: { max: 10, windowSeconds: 600 },
  // About 350 counters of 5,000 PBKDF2-SHA256 iterations: a second or two in a phone's browser.
  proofOfWork: { cost: 5_000, counterMin: 100, counterMax: 600, ttlSeconds: 300 },
});

/** Every window limit of a policy, for sweeping counters older than the longest window. */
export function windowLimitsOf(policy: OtpPolicy): WindowLimit[] {
  return [
    policy.freeCodesPerIdentifier,
    policy.codesPerIdentifier,
    policy.codesPerIdentifierPerDay,
    policy.codesPerKnownDevice,
    policy.reauthCodesPerUser,
    policy.startsPerIp,
    policy.verifiesPerIp,
    policy.verifiesPerDevice,
  ];
}
