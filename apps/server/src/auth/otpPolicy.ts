/** A fixed-window limit: at most `max` events per `windowSeconds`. */
export interface WindowLimit {
  max: number;
  windowSeconds: number;
}

/** How long one-time codes live, how often they may be tried, and the rate limits around them. */
export interface OtpPolicy {
  /** How long a code works (600 s: the web app and the message text say 10 minutes). */
  codeTtlSeconds: number;
  /** Wrong tries that kill a code: the last of them already answers `code_attempts_exceeded`. */
  maxAttempts: number;
  /** The least time between two codes for one number or address. */
  resendCooldownSeconds: number;
  /** Codes sent to one number or address. */
  codesPerIdentifier: WindowLimit;
  /** `otp/start` requests from one IP address. */
  startsPerIp: WindowLimit;
  /** `otp/verify` requests from one IP address. */
  verifiesPerIp: WindowLimit;
  /** `otp/verify` requests for one number or address, whoever sends them. */
  verifiesPerIdentifier: WindowLimit;
}

/** The defaults: 10-minute codes, 5 tries, 30 s between codes, 5 codes an hour per identifier, and so on. */
export const DEFAULT_OTP_POLICY: OtpPolicy = Object.freeze({
  codeTtlSeconds: 600,
  maxAttempts: 5,
  resendCooldownSeconds: 30,
  codesPerIdentifier: { max: 5, windowSeconds: 3600 },
  startsPerIp: { max: 20, windowSeconds: 3600 },
  verifiesPerIp: { max: 30, windowSeconds: 600 },
  verifiesPerIdentifier: { max: 10, windowSeconds: 600 },
});
