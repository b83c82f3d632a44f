import { DAY_SECONDS, HOUR_SECONDS, MINUTE_SECONDS } from '@dial/core';

/** A fixed-window limit: at most `max` events per `windowSeconds`. */
export interface WindowLimit {
  max: number;
  windowSeconds: number;
}

/** The name of each rate limit the server applies; the key of {@link RATE_LIMITS}. */
export type LimitName =
  | 'otpStartsPerIp'
  | 'otpVerifiesPerIp'
  | 'otpVerifiesPerDevice'
  | 'signInFreeCodesPerIdentifier'
  | 'signInCodesPerIdentifier'
  | 'signInCodesPerIdentifierPerDay'
  | 'signInCodesPerKnownDevice'
  | 'reauthCodesPerUser'
  | 'linkCodesPerUser'
  | 'linkCodesPerIdentifier'
  | 'siweNoncesPerIp'
  | 'siweChainChecksPerDevice'
  | 'siweChainChecksPerIp'
  | 'passkeyChallengesPerIp'
  | 'walletRecoveryPerUser'
  | 'walletChallengesPerUser'
  | 'walletLookupsPerUser'
  | 'walletLookupsPerIp'
  | 'deviceUnlocksPerSession'
  | 'deviceLinksPerUser'
  | 'deviceLinkClaimsPerUser'
  | 'deviceLinkClaimsPerIp'
  | 'activityRecordsPerUser'
  | 'activityChecksPerUser'
  | 'onrampSessionsPerUser'
  | 'onrampSessionsPerIp'
  | 'sandboxPaymentsPerIp'
  | 'paymasterCallsPerUser'
  | 'bundlerCallsPerUser'
  | 'operatorReportsPerIp';

/** Every rate limit, by name: the table's numbers, with the configured ones (`OTP_*_PER_IP`) in place. */
export type RateLimits = Readonly<Record<LimitName, Readonly<WindowLimit>>>;

const HOUR = HOUR_SECONDS;
const TEN_MINUTES = 10 * MINUTE_SECONDS;

/**
 * Every rate limit of the server, with its default numbers. `loadConfig` puts `OTP_STARTS_PER_IP` and
 * `OTP_VERIFIES_PER_IP` in place of the two per-IP code limits' `max`; the routes read the result from
 * `config.rateLimits`. The counters' keys (`<limit>:<subject>`, e.g. `otp-start:ip:203.0.113.9`) are made by
 * `rateKey` (`rateKey.ts`) alone, the limiters take no other; a per-IP subject is always `ipSubject`'s (an IPv6 client's network, as in
 * `otp-start:ip:2001:db8:0:1::/64`). `sweepExpiredRows` keeps counters as long as the longest window here.
 */
export const RATE_LIMITS: RateLimits = Object.freeze({
  // One-time codes (auth/codeBudgets.ts says how the sign-in budgets combine). Codes are kept per purpose
  // and per browser (the `dial_device` cookie), so each limit says whose requests share it.
  /** `otp/start` and `reauth/start` requests from one IP address; `OTP_STARTS_PER_IP` sets `max`. */
  otpStartsPerIp: { max: 20, windowSeconds: HOUR },
  /** `otp/verify` and `reauth/verify` requests from one IP address; `OTP_VERIFIES_PER_IP` sets `max`. */
  otpVerifiesPerIp: { max: 30, windowSeconds: TEN_MINUTES },
  /** Verify requests for one purpose, number or address and browser. */
  otpVerifiesPerDevice: { max: 10, windowSeconds: TEN_MINUTES },
  /**
   * Sign-in codes sent to one number or address for browsers its account has not signed in from, before
   * each further one needs a proof of work (`proof_of_work_required`).
   */
  signInFreeCodesPerIdentifier: { max: 3, windowSeconds: HOUR },
  /**
   * The hard cap on sign-in codes to one number or address for browsers its account has not signed in
   * from, proof of work or not: it bounds SMS pumping, and brute force at `maxAttempts` tries a code.
   */
  signInCodesPerIdentifier: { max: 10, windowSeconds: HOUR },
  /** The same hard cap over a day, so that brute force cannot go on at the hourly cap day after day. */
  signInCodesPerIdentifierPerDay: { max: 30, windowSeconds: DAY_SECONDS },
  /**
   * Sign-in codes for one browser the account has signed in from before (a known browser): a budget of its
   * own, which a flood from other browsers does not use up.
   */
  signInCodesPerKnownDevice: { max: 5, windowSeconds: HOUR },
  /** Re-authentication codes for one signed-in user (a budget apart from sign-in codes). */
  reauthCodesPerUser: { max: 5, windowSeconds: HOUR },
  /**
   * Link codes (`POST /api/auth/methods/code`) for one signed-in user: a budget apart from sign-in codes,
   * so linking never spends a number's sign-in codes, nor a sign-in flood blocks linking.
   */
  linkCodesPerUser: { max: 5, windowSeconds: HOUR },
  /**
   * Link codes to one number or address, whichever accounts ask: bounds SMS pumping and the codes someone
   * else's number receives (each asking account also spends its own budget).
   */
  linkCodesPerIdentifier: { max: 5, windowSeconds: HOUR },

  // Sign-In with Ethereum (auth/siwe/): sign-in and link alike. Nothing is counted per address: whoever
  // names someone's address could spend that budget and hold its owner out. A valid signature by the
  // address's own key is recovered locally (no RPC) and never counted; every other signature (a contract
  // wallet's, or garbage) costs a call to the chain's RPC, so it is counted, before that call, against the
  // browser and the IP address it came from.
  /** Nonces asked from one IP address: each is a row until swept. */
  siweNoncesPerIp: { max: 30, windowSeconds: TEN_MINUTES },
  /**
   * Signatures from one browser (its `dial_device` cookie; for a link, its session) that were not the
   * address's key's and were asked of the chain. A browser that has spent them is refused before any
   * signature check, the key's recovery (a few ms of CPU) too: only its own bad signatures spend them.
   */
  siweChainChecksPerDevice: { max: 10, windowSeconds: TEN_MINUTES },
  /** The same checks from one IP address (an IPv6 client by its prefix): fresh browsers do not multiply them. */
  siweChainChecksPerIp: { max: 30, windowSeconds: TEN_MINUTES },
  // Passkeys (WebAuthn): a challenge is a row until used or swept; an assertion is checked locally (one
  // signature, no RPC) against a challenge used once, so the rows are what needs bounding. The sign-in form
  // asks for one on every visit (the passkey autofill needs it up front), so the limit leaves room for many
  // people behind one address (an office, a carrier's NAT); the autofill fails silently when it is reached.
  /** Passkey challenges (sign-up, sign-in, link) asked from one IP address: each is a row until swept. */
  passkeyChallengesPerIp: { max: 300, windowSeconds: TEN_MINUTES },

  // The wallet.
  /**
   * Recovery: the recovery share is encrypted in the browser under a key made from both scrypt(password)
   * and the OPRF output of the password under the user's server-held key (`POST /api/wallet/recovery/oprf`),
   * so whoever obtains the ciphertext (a stolen session, a copy of the database) cannot check a guess
   * offline: each guess needs an evaluation here. This limit is what bounds those guesses: every evaluation
   * (setup or recovery alike) and every wrong password or passkey the browser reports
   * (`POST /api/wallet/recovery/failed`: an older scrypt-only record, which the OPRF does not guard) counts
   * against the same per-user budget, so one try of a password is one of these. Fetching the ciphertext
   * (`GET /api/wallet/recovery`) is not counted: it lets nobody check a guess without an evaluation, and an
   * older record is open to offline guessing from its first fetch whatever the count.
   */
  walletRecoveryPerUser: { max: 10, windowSeconds: HOUR },
  /**
   * Each `POST /api/wallet/challenge` stores a row until it is used or swept: enough for many tabs and
   * retries, not for a flood.
   */
  walletChallengesPerUser: { max: 60, windowSeconds: HOUR },
  /**
   * Look-ups: a phone number tells whether that person has a Dial wallet, so look-ups are limited per user
   * and per client address against enumeration.
   */
  walletLookupsPerUser: { max: 30, windowSeconds: HOUR },
  walletLookupsPerIp: { max: 60, windowSeconds: HOUR },

  // Devices (issue 28). A device's unlock secret has 256 bits: nothing guesses it; the limit bounds the work
  // (a look-up and a decryption each) one session may ask for, and is counted per session so that a stolen
  // session cannot spend the owner's browsers' budget.
  /** `POST /api/wallet/devices/:id/unlock` from one session (every page load of a device asks once). */
  deviceUnlocksPerSession: { max: 120, windowSeconds: TEN_MINUTES },
  /** Links (`POST /api/wallet/links`) one user may start: each is a row for an hour past its 5 minutes. */
  deviceLinksPerUser: { max: 20, windowSeconds: HOUR },
  /**
   * Codes entered (`POST /api/wallet/links/claim`), right or wrong, by one user and from one IP address. A
   * code has 8 characters of 25 (core's `LINK_CODE_ALPHABET`: 25^8, about 1.5·10^11) and lives 5 minutes, and
   * only a session of the same account can claim it: at 1,440 guesses a day, the chance of hitting a live
   * code is about one in a hundred million a day for each code waiting.
   */
  deviceLinkClaimsPerUser: { max: 10, windowSeconds: TEN_MINUTES },
  deviceLinkClaimsPerIp: { max: 30, windowSeconds: TEN_MINUTES },

  // Activity: recording is limited per user so that one account cannot fill the table with made-up
  // transfers, and since each record and each "check now" reads the chain, so that one account cannot make
  // the server hammer the RPC.
  activityRecordsPerUser: { max: 60, windowSeconds: HOUR },
  activityChecksPerUser: { max: 120, windowSeconds: HOUR },

  // The on-ramp.
  /** Session tokens one user may ask for (each is a purchase started). */
  onrampSessionsPerUser: { max: 10, windowSeconds: TEN_MINUTES },
  /** Session tokens asked from one IP address. */
  onrampSessionsPerIp: { max: 30, windowSeconds: TEN_MINUTES },
  /** Sandbox checkout payments tried from one IP address. */
  sandboxPaymentsPerIp: { max: 30, windowSeconds: TEN_MINUTES },

  // Sponsored fees (sponsor/). What is paid for is bounded by SPONSOR_ACCOUNT_DAILY_LIMIT and the chains' caps,
  // in the database; these bound the work one session makes the server do (a chain read and a signature per
  // paymaster call, a bundler call per proxied request). A send is 2 paymaster calls and a few bundler calls.
  /** `POST /api/paymaster` calls of one user. */
  paymasterCallsPerUser: { max: 60, windowSeconds: TEN_MINUTES },
  /** `POST /api/bundler/:chainId` requests of one user (a send polls its receipt a few times a second). */
  bundlerCallsPerUser: { max: 600, windowSeconds: TEN_MINUTES },
  /** `GET /api/admin/sponsorships` from one IP address, right token or wrong: bounds guessing and chain reads. */
  operatorReportsPerIp: { max: 30, windowSeconds: TEN_MINUTES },
});

/** The longest window of `limits`, in seconds: how long a rate-limit counter can still be read. */
export function longestWindowSeconds(limits: RateLimits): number {
  return Math.max(...Object.values(limits).map((limit) => limit.windowSeconds));
}
