import type { OnrampOffer } from '@dial/core';
import type { OtpPolicy } from './otpPolicy.js';
import type { RateLimits } from './rateLimits.js';

/** Where the server runs: `development` (the default), `production` or `test`. */
export type Environment = 'development' | 'production' | 'test';

/** The on-ramp a server runs: Coinbase Onramp, the sandbox checkout on the local chain, or none. */
export type OnrampProviderName = 'coinbase' | 'sandbox' | 'off';

/** Pino's levels, plus `silent`. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Who may create an account when `ALLOWLIST` is set. Existing users always sign in. */
export interface Allowlist {
  /** Normalised (trimmed, lower-case) addresses. */
  emails: readonly string[];
  /** E.164 numbers. */
  phones: readonly string[];
  /** Wallet addresses, EIP-55 checksummed (for Sign-In with Ethereum sign-ups). */
  wallets: readonly string[];
}

/** The local development chain (31337) the dev routes use, when it is on. */
export interface LocalChainConfig {
  /** Whether `main.ts` starts a chain itself (`startDevChain`) or uses one that already runs at `rpcUrl`. */
  start: boolean;
  /** The port `main.ts` starts the chain on (`LOCAL_CHAIN_PORT`). */
  port: number;
  /** The chain's JSON-RPC URL, as the server reaches it. Replaced by the started chain's URL by `main.ts`. */
  rpcUrl: string;
  /**
   * The test USDC on that chain, set by `main.ts` from the chain it starts; unset or `null` when unknown (a
   * chain at `LOCAL_CHAIN_URL`): then `/api/config` gives `usdc: null` and the faucet has no USDC.
   */
  usdc?: `0x${string}` | null;
  /** `LOCAL_BUNDLER_PORT`: where `main.ts` starts the local bundler when it starts the chain. */
  bundlerPort?: number;
}

/** Coinbase Onramp's session token API, where `CDP_API_KEY_*` are set. */
export interface CoinbaseOnrampConfig {
  /** `CDP_API_KEY_ID`: the key's id (a UUID, or `organizations/…/apiKeys/…`). */
  keyId: string;
  /** `CDP_API_KEY_SECRET`: an EC P-256 private key in PEM, or an Ed25519 key in base64 (64 bytes). */
  keySecret: string;
  /** `CDP_PROJECT_ID`: the buy page's `appId`. */
  projectId: string;
  /** `ONRAMP_API_URL`: the API base; the token endpoint is `<apiUrl>/v1/token`. */
  apiUrl: string;
  /** `ONRAMP_PAY_URL`: the buy page. */
  payUrl: string;
}

/** Funding through the on-ramp (issue 4), when it is offered. */
export interface OnrampConfig {
  /** Which on-ramp runs, as `decideOnrampProvider` picks it (`off` is `onramp: null`). */
  provider: Exclude<OnrampProviderName, 'off'>;
  /** `APP_ID`: this deployment's id; the buy link says `endPartnerName=dial:<appId>`. */
  appId: string;
  coinbase: CoinbaseOnrampConfig | null;
  /** What is offered where: the default table plus `ONRAMP_OFFERS`. */
  offers: readonly OnrampOffer[];
  /** `ONRAMP_BTC_ADDRESS` / `ONRAMP_SOL_ADDRESS`: where BTC and SOL go; BTC and SOL are offered only with one. */
  btcAddress: string | null;
  solAddress: string | null;
}

/** Where prices come from (`PRICE_SOURCE`), for the total value the wallet home shows. */
export interface PriceConfig {
  /**
   * `sandbox`: fixed test prices (never in production); `coinbase`: Coinbase's public spot prices at `url`;
   * `off`: no prices (`GET /api/prices` answers none).
   */
  source: 'sandbox' | 'coinbase' | 'off';
  /** `PRICE_URL`: the Coinbase API base, without a trailing slash; spot prices are `<url>/v2/prices/ETH-USD/spot`. */
  url: string;
}

/** Which calls of a user operation the operator pays the fee of (`SPONSOR_CALLS`). */
export type SponsorCalls = 'transfers' | 'dial-accounts' | 'off';

/** Who pays a chain's sponsored fees: Dial's own DialPaymaster (the server signs), or an ERC-7677 service. */
export type PaymasterConfig = { kind: 'dial'; address: `0x${string}` } | { kind: 'external'; url: string };

/** User operations (ERC-4337, EntryPoint v0.8) and sponsored fees (issue 29). */
export interface SponsorshipConfig {
  /** `BUNDLER_URL_<chainId>` (and the local bundler): the chains user operations can be sent on. */
  bundlerUrls: Readonly<Record<number, string>>;
  /** `PAYMASTER_ADDRESS_<chainId>` / `PAYMASTER_URL_<chainId>`: the chains whose fees can be paid. */
  paymasters: Readonly<Record<number, PaymasterConfig>>;
  /** `PAYMASTER_SIGNER_KEY`: the key DialPaymaster honours; `null` without one. Never logged. */
  signerKey: `0x${string}` | null;
  /** `SPONSOR_CALLS`. */
  calls: SponsorCalls;
  /** `SPONSOR_ACCOUNT_DAILY_LIMIT`: sponsored operations per account per UTC day. */
  accountDailyLimit: number;
  /** `SPONSOR_DAILY_CAP_<chainId>`: the most wei paid per UTC day on that chain (at operations' max cost). */
  dailyCapsWei: Readonly<Record<number, bigint>>;
  /** `OPERATOR_NAME`: "paid by <name>". */
  operatorName: string;
  /** `OPERATOR_TOKEN`: the operator report's bearer token; `null`: the report is not served. Never logged. */
  operatorToken: string | null;
}

/** Rate-limit counters in Redis, shared by every server using it. */
export interface RedisConfig {
  /** `REDIS_URL`: `redis://[user:password@]host[:port][/database]`, or `rediss://` for TLS. */
  url: string;
  /** Put before every counter's key. Not read from the environment; tests use a unique one per run. */
  keyPrefix: string;
}

/**
 * Which `X-Forwarded-For` entries are believed for the client's address (`TRUST_PROXY`), in the form Fastify's
 * `trustProxy` takes: `false`, none (the socket's address is the client's); a number, that many proxies in
 * front of Dial (each appends the address it saw, so the client is that many entries from the right); or
 * the proxies' addresses and CIDR ranges (entries added by them are skipped, the first other one is the
 * client). Never `true`, which would believe the left-most entry, written by the client itself.
 */
export type TrustProxy = false | number | readonly string[];

/** The HTTP server's timeouts and connection cap, against slow or idle clients holding connections. */
export interface HttpLimits {
  /** `REQUEST_TIMEOUT_SECONDS`: a request's headers and body must have arrived within this; else 408. */
  requestTimeoutSeconds: number;
  /** `HEADERS_TIMEOUT_SECONDS`: a request's headers must have arrived within this; else 408. */
  headersTimeoutSeconds: number;
  /** `IDLE_TIMEOUT_SECONDS`: a connection with nothing on it for this long (kept alive between requests) is closed. */
  idleTimeoutSeconds: number;
  /** `MAX_CONNECTIONS`: connections open at once; further ones are closed as soon as they are accepted. */
  maxConnections: number;
}

/**
 * Everything the server is configured with, as `buildApp` takes it. `loadConfig` reads all of it from the
 * environment but the master key's file, which `main.ts` reads (see {@link LoadedConfig}).
 */
export interface AppConfig {
  environment: Environment;
  /** The interface to listen on; only a loopback one in development unless `devAllowRemote`. */
  host: string;
  /**
   * `DEV_ALLOW_REMOTE`: in development, the server may listen on a non-loopback `host`, which makes the dev
   * outbox (every sign-in code) readable by anyone who can reach the port. Logged as a warning.
   */
  devAllowRemote: boolean;
  port: number;
  /** The browser-facing origin, e.g. `https://wallet.example.com` (no path, no trailing slash). */
  publicUrl: string;
  /**
   * `APP_ID`: this deployment's id (`PUBLIC_URL`'s host name by default). Names the Redis wake channel, so
   * deployments sharing one Redis never hear each other, and the on-ramp's `endPartnerName`.
   */
  appId: string;
  /** Origins whose state-changing requests are accepted: `publicUrl`, and loopback aliases in development. */
  allowedOrigins: readonly string[];
  /** Absolute path of the data directory (SQLite file, generated key). */
  dataDir: string;
  /** `postgres://…` for PostgreSQL; `undefined` for the SQLite file `dataDir/dial.sqlite`. */
  databaseUrl: string | undefined;
  /** Where rate-limit counters live when not in the database (`REDIS_URL`); `null`: in the database. */
  redis: RedisConfig | null;
  /** The 32-byte master key; auth shares and one-time codes use keys derived from it with HKDF. */
  shareEncryptionKey: Uint8Array;
  mail: { smtpUrl: string | undefined; from: string };
  twilio: { accountSid: string; authToken: string; from: string; apiUrl: string | undefined } | undefined;
  /** `null`: anyone may sign up. */
  allowlist: Allowlist | null;
  /** `null`: no limit. */
  maxUsers: number | null;
  /** `MAX_SIGN_IN_METHODS`: the most sign-in methods (phones, e-mails, wallets) one account may link. */
  maxSignInMethods: number;
  /** `MAX_WALLET_DEVICES`: the most devices (browsers holding a split of the key) one wallet may have at once. */
  maxWalletDevices: number;
  /** `COOLING_OFF_HOURS`: how long a change asked for without the key's proof waits. */
  coolingOffHours: number;
  /** WalletConnect (`WALLETCONNECT_PROJECT_ID`, `WALLETCONNECT_RELAY_URL`); `null`: the route is not offered. */
  walletConnect: { projectId: string; relayUrl: string } | null;
  /** `null`: no local chain, no faucet, no `/api/dev/chain`. */
  localChain: LocalChainConfig | null;
  /**
   * The RPC URL the web app reads each chain from, by chain id, where it is not viem's default
   * (`RPC_URL_<chainId>`). Only supported chains; a chain without an entry uses its public RPC.
   */
  rpcUrls: Readonly<Record<number, string>>;
  session: { idleHours: number; maxDays: number };
  trustProxy: TrustProxy;
  /**
   * `IPV6_PREFIX_LENGTH`: per-IP rate limits count an IPv6 client by this many leading bits of its address
   * (`rateLimit/ipSubject.ts`), an IPv4 client by its address.
   */
  ipv6PrefixLength: number;
  /** Timeouts and the connection cap of the HTTP server. */
  http: HttpLimits;
  logLevel: LogLevel;
  /** The built web app (`apps/web/dist`); skipped when the folder does not exist. */
  webDistDir: string;
  /** One-time code lifetimes, tries and proof of work. Not read from the environment. */
  otp: OtpPolicy;
  /** Every rate limit: the table of `config/rateLimits.ts`, with `OTP_STARTS_PER_IP` and `OTP_VERIFIES_PER_IP`. */
  rateLimits: RateLimits;
  /** The on-ramp; `null` when funding by card is not offered (production without CDP keys). */
  onramp: OnrampConfig | null;
  /** The price source of the wallet's total value. */
  prices: PriceConfig;
  /** The chain watcher (`CHAIN_WATCH_INTERVAL_SECONDS`, `WATCH_CHAIN_<chainId>`); see `chainWatch/`. */
  chainWatch: ChainWatchConfig;
  /** User operations and sponsored fees. */
  sponsorship: SponsorshipConfig;
}

/**
 * How a chain is watched for money reaching account wallets: `blocks` reads every block's transactions (native
 * value) and the USDC `Transfer` logs; `logs` only the logs, with native value seen as balance changes; `off`.
 */
export type ChainWatchMode = 'blocks' | 'logs' | 'off';

export interface ChainWatchConfig {
  /** How often each server looks for new blocks; 0: the watcher does not run on this server. */
  intervalMs: number;
  /** `WATCH_CHAIN_<chainId>` as set; a chain left out has its default (see `watchedChains`). */
  modes: Readonly<Record<number, ChainWatchMode>>;
}

/**
 * Where the master key comes from: `SHARE_ENCRYPTION_KEY` (`value`), or outside production without it, the
 * key file in `DATA_DIR` (`file`) that `main.ts` generates on the first start and reads on later ones.
 */
export type ShareKeySource = { kind: 'value'; key: Uint8Array } | { kind: 'file'; path: string };

/**
 * What `loadConfig` reads from the environment: the {@link AppConfig}, with the source of the master key in
 * place of the key, so that reading the configuration writes and reads no file.
 */
export interface LoadedConfig extends Omit<AppConfig, 'shareEncryptionKey'> {
  shareKey: ShareKeySource;
}
