import type { LimitName } from './rateLimits.js';

declare const madeByRateKey: unique symbol;

/**
 * A rate-limit counter's key: the limit's name in the counters (`otp-start:ip`) and its subject, as in
 * `otp-start:ip:203.0.113.9`. Only {@link rateKey} makes one (the limiters take nothing else), so each limit's
 * counters are named one way, in one place; `test/rateKeys.test.ts` holds every other production file to it.
 */
export type RateKey = string & { readonly [madeByRateKey]: LimitName };

/**
 * Each limit of `config/rateLimits.ts`'s table by the name its counters are stored under (in `rate_limits.key`, or in
 * Redis after its prefix). These names are data already stored: changing one starts its counters afresh.
 */
const KEY_NAMES: Readonly<Record<LimitName, string>> = Object.freeze({
  otpStartsPerIp: 'otp-start:ip',
  otpVerifiesPerIp: 'otp-verify:ip',
  otpVerifiesPerDevice: 'otp-verify',
  signInFreeCodesPerIdentifier: 'otp-codes:sign-in:free',
  signInCodesPerIdentifier: 'otp-codes:sign-in',
  signInCodesPerIdentifierPerDay: 'otp-codes:sign-in:day',
  signInCodesPerKnownDevice: 'otp-codes:sign-in:known',
  reauthCodesPerUser: 'otp-codes:reauth',
  linkCodesPerUser: 'otp-codes:link',
  linkCodesPerIdentifier: 'otp-codes:link:to',
  siweNoncesPerIp: 'siwe-nonce:ip',
  siweChainChecksPerDevice: 'siwe-chain-check',
  siweChainChecksPerIp: 'siwe-chain-check:ip',
  passkeyChallengesPerIp: 'passkey-challenge:ip',
  walletRecoveryPerUser: 'recovery:user',
  walletChallengesPerUser: 'wallet-challenge:user',
  walletLookupsPerUser: 'lookup:user',
  walletLookupsPerIp: 'lookup:ip',
  deviceUnlocksPerSession: 'device-unlock:session',
  deviceLinksPerUser: 'device-link:user',
  deviceLinkClaimsPerUser: 'device-link-claim:user',
  deviceLinkClaimsPerIp: 'device-link-claim:ip',
  activityRecordsPerUser: 'activity:user',
  activityChecksPerUser: 'activity-check:user',
  onrampSessionsPerUser: 'onramp-session:user',
  onrampSessionsPerIp: 'onramp-session:ip',
  sandboxPaymentsPerIp: 'onramp-sandbox-pay:ip',
  paymasterCallsPerUser: 'paymaster:user',
  bundlerCallsPerUser: 'bundler:user',
  operatorReportsPerIp: 'operator-report:ip',
});

/**
 * The key of `limit`'s counter for one subject: `rateKey('otpStartsPerIp', ipSubject(ip, prefixLength))`.
 *
 * @param limit - the limit's name in the table (`config.rateLimits[limit]` is what it is consumed against).
 * @param subject - whose events it counts, in parts joined by `:` (a per-IP limit's is `ipSubject`'s; a
 * per-user limit's the user's id; a code's the purpose, channel, number or address and browser it is for).
 */
export function rateKey(limit: LimitName, ...subject: [string, ...string[]]): RateKey {
  return `${KEY_NAMES[limit]}:${subject.join(':')}` as RateKey;
}
