import { createPrivateKey, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  COINBASE_ONRAMP_PAY_URL,
  DEFAULT_ONRAMP_OFFERS,
  isDialError,
  isValidPhone,
  LOCAL_CHAIN_ID,
  normalizeEmail,
  type OnrampOffer,
  parseOnrampOffers,
  parsePhone,
  SUPPORTED_CHAINS,
  toE164,
} from '@dial/core';
import { DEFAULT_OTP_POLICY, type OtpPolicy } from './auth/otpPolicy.js';

/** Where the server runs: `development` (the default), `production` or `test`. */
export type Environment = 'development' | 'production' | 'test';

/** Pino's levels, plus `silent`. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Who may create an account when `ALLOWLIST` is set. Existing users always sign in. */
export interface Allowlist {
  /** Normalised (trimmed, lower-case) addresses. */
  emails: readonly string[];
  /** E.164 numbers. */
  phones: readonly string[];
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
  /**
   * `coinbase` when a CDP API key is set; else `sandbox` (our own checkout crediting the local chain) outside
   * production with the local chain on. Production without CDP keys has no on-ramp (`onramp: null`).
   */
  provider: 'coinbase' | 'sandbox';
  /** `APP_ID`: this deployment's id; the buy link says `endPartnerName=dial:<appId>`. */
  appId: string;
  coinbase: CoinbaseOnrampConfig | null;
  /** What is offered where: the default table plus `ONRAMP_OFFERS`. */
  offers: readonly OnrampOffer[];
  /** `ONRAMP_BTC_ADDRESS` / `ONRAMP_SOL_ADDRESS`: where BTC and SOL go; BTC and SOL are offered only with one. */
  btcAddress: string | null;
  solAddress: string | null;
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

/** The prefix of Dial's rate-limit keys in Redis: `dial:rate:otp-start:ip:203.0.113.9`. */
export const REDIS_KEY_PREFIX = 'dial:rate:';

/** Everything the server is configured with; {@link loadConfig} reads it from the environment. */
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
  /** `null`: no local chain, no faucet, no `/api/dev/chain`. */
  localChain: LocalChainConfig | null;
  /**
   * The RPC URL the web app reads each chain from, by chain id, where it is not viem's default
   * (`RPC_URL_<chainId>`). Only supported chains; a chain without an entry uses its public RPC.
   */
  rpcUrls: Readonly<Record<number, string>>;
  session: { idleHours: number; maxDays: number };
  trustProxy: TrustProxy;
  /** Timeouts and the connection cap of the HTTP server. */
  http: HttpLimits;
  logLevel: LogLevel;
  /** The built web app (`apps/web/dist`); skipped when the folder does not exist. */
  webDistDir: string;
  /** One-time code lifetimes and rate limits. Not read from the environment. */
  otp: OtpPolicy;
  /** The on-ramp; `null` when funding by card is not offered (production without CDP keys). */
  onramp: OnrampConfig | null;
}

/** A setting is missing or wrong: the message names the variable and says what to do. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const ENVIRONMENTS: readonly Environment[] = ['development', 'production', 'test'];
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const KEY_FILE_NAME = 'share-encryption.key';

/** The built web app, next to this server in the repository: `apps/web/dist` (from `src/` or `dist/`). */
export const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Reads and checks the configuration from environment variables. Throws a {@link ConfigError} whose message
 * names the variable at fault, so the server refuses to start rather than running half-configured.
 *
 * Side effect: in development and test, when `SHARE_ENCRYPTION_KEY` is not set, a key is generated once
 * into `DATA_DIR/share-encryption.key` (mode 0600) and read from there on later starts.
 *
 * @param env - The variables; `process.env` by default.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  // NODE_ENV: development (default) | production | test. Production turns off the dev outbox, the dev
  // routes and the local chain, requires SHARE_ENCRYPTION_KEY and marks the session cookie Secure.
  const environment = oneOf('NODE_ENV', read('NODE_ENV') ?? 'development', ENVIRONMENTS);
  const production = environment === 'production';

  // PORT: the TCP port to listen on (default 8080).
  const port = integer('PORT', read('PORT'), 8080, 0, 65_535);
  // HOST: the interface to listen on (default 127.0.0.1, loopback only). Outside production (development
  // and test alike) only a loopback interface, because the dev outbox publishes every sign-in code, unless DEV_ALLOW_REMOTE=true says so
  // explicitly (then buildApp logs a warning). A server others reach runs with NODE_ENV=production.
  const host = read('HOST') ?? '127.0.0.1';
  const devAllowRemote =
    oneOf('DEV_ALLOW_REMOTE', read('DEV_ALLOW_REMOTE') ?? 'false', ['true', 'false'] as const) === 'true';
  if (devAllowRemote && production) {
    throw new ConfigError(
      'DEV_ALLOW_REMOTE is for development only (production has no dev outbox): remove it.',
    );
  }
  if (!production && !devAllowRemote && !isLoopbackHost(host)) {
    throw new ConfigError(
      `HOST=${host} would let other machines reach this development server, whose dev outbox ` +
        '(/dev/outbox) shows every sign-in code to anyone who can open it. Run a server others reach with ' +
        'NODE_ENV=production (in a container too); keep HOST=127.0.0.1 for development; or set ' +
        'DEV_ALLOW_REMOTE=true if you accept that everyone on that network can sign in as anyone.',
    );
  }

  // PUBLIC_URL: the origin people open in their browser (default http://localhost:PORT). Used for the
  // origin (CSRF) check; in development http://localhost:PORT and http://127.0.0.1:PORT are accepted too.
  const publicUrl = origin('PUBLIC_URL', read('PUBLIC_URL') ?? `http://localhost:${port}`);
  const allowedOrigins = new Set([publicUrl]);
  if (environment === 'development') {
    allowedOrigins.add(`http://localhost:${port}`);
    allowedOrigins.add(`http://127.0.0.1:${port}`);
  }

  // DATA_DIR: where the SQLite database and the generated development key live (default ./data, relative to
  // the working directory).
  const dataDir = resolve(read('DATA_DIR') ?? './data');

  // DATABASE_URL: postgres://user:password@host:5432/db for PostgreSQL; unset for SQLite at
  // DATA_DIR/dial.sqlite.
  const databaseUrl = read('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(
      'DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/database); leave it unset for SQLite.',
    );
  }

  // REDIS_URL: redis://[user:password@]host:6379[/database] (rediss:// for TLS) to keep rate-limit counters in
  // Redis instead of the database. Unset: in the database. The server does not start when it cannot reach it.
  const redisUrl = read('REDIS_URL');
  const redis = redisUrl === undefined ? null : { url: checkRedisUrl(redisUrl), keyPrefix: REDIS_KEY_PREFIX };

  // SHARE_ENCRYPTION_KEY: 32 random bytes, as 64 hex characters or base64 (`openssl rand -hex 32`). Encrypts
  // the stored auth shares and keys the one-time-code hashes. Required in production; in development and
  // test it is generated into DATA_DIR/share-encryption.key on first start. Losing it makes every stored
  // auth share unreadable.
  const keyText = read('SHARE_ENCRYPTION_KEY');
  let shareEncryptionKey: Uint8Array;
  if (keyText !== undefined) {
    shareEncryptionKey = parseKey(keyText);
  } else if (production) {
    throw new ConfigError(
      'SHARE_ENCRYPTION_KEY is required in production: set it to 32 random bytes as 64 hex characters ' +
        '(for example the output of `openssl rand -hex 32`), and back it up.',
    );
  } else {
    shareEncryptionKey = readOrCreateKeyFile(dataDir);
  }

  // SMTP_URL: smtp://user:password@host:587 or smtps://…:465, to send codes by e-mail. Unset: e-mail codes go
  // to the dev outbox (development, test) or e-mail sign-in is unavailable (production).
  const smtpUrl = read('SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError('SMTP_URL must start with smtp:// or smtps://.');
  }
  // MAIL_FROM: the sender of code e-mails (default `Dial <no-reply@localhost>`).
  const mailFrom = read('MAIL_FROM') ?? 'Dial <no-reply@localhost>';

  // TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM (an E.164 number or a Messaging Service SID MG…): all
  // three send codes by SMS through Twilio. Unset: SMS codes go to the dev outbox (development, test) or SMS
  // sign-in is unavailable (production). TWILIO_API_URL: another Twilio-compatible API base (tests).
  const twilioParts = {
    accountSid: read('TWILIO_ACCOUNT_SID'),
    authToken: read('TWILIO_AUTH_TOKEN'),
    from: read('TWILIO_FROM'),
  };
  const twilioSet = Object.values(twilioParts).filter((value) => value !== undefined).length;
  if (twilioSet !== 0 && twilioSet !== 3) {
    throw new ConfigError('Set all three of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM, or none.');
  }
  const twilioApiUrl = read('TWILIO_API_URL');
  if (twilioApiUrl !== undefined) origin('TWILIO_API_URL', twilioApiUrl, true);
  const twilio =
    twilioParts.accountSid !== undefined &&
    twilioParts.authToken !== undefined &&
    twilioParts.from !== undefined
      ? {
          accountSid: twilioParts.accountSid,
          authToken: twilioParts.authToken,
          from: twilioParts.from,
          apiUrl: twilioApiUrl,
        }
      : undefined;

  // ALLOWLIST: comma-separated e-mail addresses and phone numbers (international form, +44…) allowed to
  // create an account. Unset: anyone may sign up. Existing users always sign in.
  const allowlist = parseAllowlist(read('ALLOWLIST'));

  // MAX_USERS: the most accounts this server creates; sign-ups beyond it are refused, existing users still
  // sign in. Unset: no limit.
  const maxUsersText = read('MAX_USERS');
  const maxUsers =
    maxUsersText === undefined ? null : integer('MAX_USERS', maxUsersText, 0, 0, Number.MAX_SAFE_INTEGER);

  // LOCAL_CHAIN: on | off (default on in development, off otherwise). Starts the local EVM chain (31337)
  // with a funded faucet, and the routes /api/dev/faucet and /api/dev/chain. Not allowed in production.
  // LOCAL_CHAIN_PORT: its port (default 8545). LOCAL_CHAIN_URL: use a chain that already runs there
  // instead of starting one.
  const localChainOn = oneOf(
    'LOCAL_CHAIN',
    read('LOCAL_CHAIN') ?? (environment === 'development' ? 'on' : 'off'),
    ['on', 'off'] as const,
  );
  if (localChainOn === 'on' && production) {
    throw new ConfigError('LOCAL_CHAIN=on is for development only: remove it, or set LOCAL_CHAIN=off.');
  }
  const localChainPort = integer('LOCAL_CHAIN_PORT', read('LOCAL_CHAIN_PORT'), 8545, 0, 65_535);
  const localChainUrl = read('LOCAL_CHAIN_URL');
  if (localChainUrl !== undefined) origin('LOCAL_CHAIN_URL', localChainUrl, true);
  const localChain: LocalChainConfig | null =
    localChainOn === 'off'
      ? null
      : localChainUrl !== undefined
        ? { start: false, port: localChainPort, rpcUrl: localChainUrl }
        : { start: true, port: localChainPort, rpcUrl: `http://127.0.0.1:${localChainPort}` };

  // RPC_URL_<chainId>: the JSON-RPC endpoint the web app reads that chain from, instead of the public one in
  // viem's chain definition (rate-limited), e.g. RPC_URL_137=https://polygon.example.com/v1/KEY. One per
  // supported chain: 137 (Polygon), 42161 (Arbitrum One), 8453 (Base), 84532 (Base Sepolia), 7777777 (Zora).
  // Browsers call it directly (it is sent in /api/config and allowed by the CSP), so a key in it is public.
  const rpcUrls = parseRpcUrls(env, read);

  // SESSION_IDLE_HOURS (default 24): a session ends after this long without a request.
  // SESSION_MAX_DAYS (default 7): and at the latest this long after sign-in.
  const session = {
    idleHours: positiveNumber('SESSION_IDLE_HOURS', read('SESSION_IDLE_HOURS'), 24),
    maxDays: positiveNumber('SESSION_MAX_DAYS', read('SESSION_MAX_DAYS'), 7),
  };

  // OTP_STARTS_PER_IP (default 20 an hour) and OTP_VERIFIES_PER_IP (default 30 per 10 minutes): the per-IP
  // limits on asking for and checking sign-in codes. Raise them when many people share one address (an
  // office behind one NAT, or a browser test suite); the per-number limits stay as they are.
  const otp: OtpPolicy = {
    ...DEFAULT_OTP_POLICY,
    startsPerIp: {
      ...DEFAULT_OTP_POLICY.startsPerIp,
      max: integer(
        'OTP_STARTS_PER_IP',
        read('OTP_STARTS_PER_IP'),
        DEFAULT_OTP_POLICY.startsPerIp.max,
        1,
        1_000_000,
      ),
    },
    verifiesPerIp: {
      ...DEFAULT_OTP_POLICY.verifiesPerIp,
      max: integer(
        'OTP_VERIFIES_PER_IP',
        read('OTP_VERIFIES_PER_IP'),
        DEFAULT_OTP_POLICY.verifiesPerIp.max,
        1,
        1_000_000,
      ),
    },
  };

  // TRUST_PROXY: false (default) | a hop count | proxy addresses/CIDRs. Behind reverse proxies, the client IP
  // used for rate limits and sent to Coinbase comes from X-Forwarded-For, reading only what those proxies
  // appended. `true` is refused: it would believe the left-most entry, which the client writes.
  const trustProxy = parseTrustProxy(read('TRUST_PROXY'));

  // REQUEST_TIMEOUT_SECONDS (default 30), HEADERS_TIMEOUT_SECONDS (default 10, at most the request timeout),
  // IDLE_TIMEOUT_SECONDS (default 65) and MAX_CONNECTIONS (default 1000): against clients that hold
  // connections open by sending slowly (slow loris) or not at all.
  const requestTimeoutSeconds = timeoutSeconds(
    'REQUEST_TIMEOUT_SECONDS',
    read('REQUEST_TIMEOUT_SECONDS'),
    DEFAULT_HTTP_LIMITS.requestTimeoutSeconds,
  );
  const headersTimeoutText = read('HEADERS_TIMEOUT_SECONDS');
  const headersTimeoutSeconds = timeoutSeconds(
    'HEADERS_TIMEOUT_SECONDS',
    headersTimeoutText,
    Math.min(DEFAULT_HTTP_LIMITS.headersTimeoutSeconds, requestTimeoutSeconds),
  );
  if (headersTimeoutSeconds > requestTimeoutSeconds) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_SECONDS (${headersTimeoutSeconds}) must not be more than REQUEST_TIMEOUT_SECONDS ` +
        `(${requestTimeoutSeconds}): the request timeout covers the headers too.`,
    );
  }
  const http: HttpLimits = {
    requestTimeoutSeconds,
    headersTimeoutSeconds,
    idleTimeoutSeconds: timeoutSeconds(
      'IDLE_TIMEOUT_SECONDS',
      read('IDLE_TIMEOUT_SECONDS'),
      DEFAULT_HTTP_LIMITS.idleTimeoutSeconds,
    ),
    maxConnections: integer(
      'MAX_CONNECTIONS',
      read('MAX_CONNECTIONS'),
      DEFAULT_HTTP_LIMITS.maxConnections,
      1,
      1_000_000,
    ),
  };

  // LOG_LEVEL: fatal | error | warn | info (default) | debug | trace | silent.
  const logLevel = oneOf('LOG_LEVEL', read('LOG_LEVEL') ?? 'info', LOG_LEVELS);

  // WEB_DIST_DIR: the built web app to serve (default apps/web/dist next to this server). Skipped, with the
  // API still served, when the folder does not exist.
  const webDistDir = resolve(read('WEB_DIST_DIR') ?? DEFAULT_WEB_DIST_DIR);

  const onramp = parseOnramp(read, { production, localChainOn: localChain !== null, publicUrl });

  return {
    environment,
    host,
    devAllowRemote,
    port,
    publicUrl,
    allowedOrigins: [...allowedOrigins],
    dataDir,
    databaseUrl,
    redis,
    shareEncryptionKey,
    mail: { smtpUrl, from: mailFrom },
    twilio,
    allowlist,
    maxUsers,
    localChain,
    rpcUrls,
    session,
    trustProxy,
    http,
    logLevel,
    webDistDir,
    otp,
    onramp,
  };
}

/** The HTTP limits without `REQUEST_TIMEOUT_SECONDS`, `HEADERS_TIMEOUT_SECONDS`, … set. */
export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = {
  requestTimeoutSeconds: 30,
  headersTimeoutSeconds: 10,
  // Above the 60 s idle timeout of common load balancers, so they never reuse a connection Dial just closed.
  idleTimeoutSeconds: 65,
  maxConnections: 1000,
};

/**
 * Whether `host` (a `HOST` value) is a loopback interface only: `localhost`, an address in 127.0.0.0/8, or
 * `::1`. `0.0.0.0`, `::` and any other address or name may be reachable from other machines.
 *
 * @param host - The interface to listen on.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  // The URL parser writes an IPv6 address in its shortest form (0:0:0:0:0:0:0:1 as ::1, ::ffff:7f00:1 for
  // ::ffff:127.0.0.1).
  if (isIP(bare) === 6)
    return /^\[(::1|::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4})\]$/.test(new URL(`http://[${bare}]`).hostname);
  return false;
}

const TRUST_PROXY_USAGE =
  'set the number of proxies in front of Dial (TRUST_PROXY=1) or their addresses ' +
  '(TRUST_PROXY=10.0.0.0/8, or several separated by commas)';

/**
 * Reads `TRUST_PROXY`: unset or `false` trusts no proxy; a whole number from 1 is a hop count; otherwise a
 * comma-separated list of IP addresses, CIDR ranges (`10.0.0.0/8`, `fd00::/8`) or the names `loopback`,
 * `linklocal` and `uniquelocal` (the ranges Fastify knows by those names).
 *
 * @throws {ConfigError} for `true` (it would believe whatever `X-Forwarded-For` a client writes), `0`, and
 *   anything else, with a message saying what to write.
 */
export function parseTrustProxy(text: string | undefined): TrustProxy {
  if (text === undefined || text === 'false') return false;
  if (text === 'true') {
    throw new ConfigError(
      `TRUST_PROXY=true trusts any X-Forwarded-For a client writes, so every per-IP limit could be dodged; ${TRUST_PROXY_USAGE}.`,
    );
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (!Number.isSafeInteger(hops) || hops < 1 || hops > 100) {
      throw new ConfigError(
        `TRUST_PROXY must be false, a number of proxies from 1 to 100, or proxy addresses, not ${JSON.stringify(text)}: ${TRUST_PROXY_USAGE}.`,
      );
    }
    return hops;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isProxyAddress(entry)) {
      throw new ConfigError(
        `TRUST_PROXY has ${JSON.stringify(entry)}, which is neither an IP address nor a CIDR range: ${TRUST_PROXY_USAGE}.`,
      );
    }
  }
  return Object.freeze(entries);
}

/** An IP address, a CIDR range with a prefix length that fits its family, or one of proxy-addr's names. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  // A range as wide as /0 (or anything wider than a /8) trusts what clients write, as `true` would: the
  // addresses of one's own proxies are never that many (the widest private ranges are 10.0.0.0/8, fd00::/8).
  const [shortest, longest] = family === 4 ? [8, 32] : [8, 128];
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= shortest && Number(prefix) <= longest;
}

/** Coinbase's Onramp API base; the session token endpoint is `<base>/v1/token`. */
export const DEFAULT_ONRAMP_API_URL = 'https://api.developer.coinbase.com/onramp';

function parseOnramp(
  read: (name: string) => string | undefined,
  context: { production: boolean; localChainOn: boolean; publicUrl: string },
): OnrampConfig | null {
  // CDP_API_KEY_ID, CDP_API_KEY_SECRET: a CDP Secret API key; with them the on-ramp is Coinbase Onramp.
  // CDP_PROJECT_ID: the CDP project id, the buy page's appId (required with the key).
  const keyId = read('CDP_API_KEY_ID');
  // A PEM in one line of an env file has its line breaks written as \n.
  const keySecret = read('CDP_API_KEY_SECRET')?.replaceAll('\\n', '\n');
  const projectId = read('CDP_PROJECT_ID');
  if ((keyId === undefined) !== (keySecret === undefined)) {
    throw new ConfigError(
      'Set both CDP_API_KEY_ID and CDP_API_KEY_SECRET (a CDP Secret API key), or neither.',
    );
  }
  if (keySecret !== undefined) checkCdpSecret(keySecret);
  if (keyId !== undefined && projectId === undefined) {
    throw new ConfigError('CDP_PROJECT_ID is required with CDP_API_KEY_ID: set it to your CDP project id.');
  }
  if (projectId !== undefined && !/^[A-Za-z0-9-]{1,100}$/.test(projectId)) {
    throw new ConfigError('CDP_PROJECT_ID must be the CDP project id (letters, digits and dashes).');
  }
  // ONRAMP_API_URL: the Onramp API base (default Coinbase's); tests point it at a stand-in.
  // In production both must be https: the API call carries the signed JWT, the buy page the session token.
  const apiUrl = read('ONRAMP_API_URL');
  if (apiUrl !== undefined) onrampUrl('ONRAMP_API_URL', apiUrl, context.production);
  // ONRAMP_PAY_URL: the buy page (default Coinbase's). The sandbox always uses its own page.
  const payUrl = read('ONRAMP_PAY_URL');
  if (payUrl !== undefined) onrampUrl('ONRAMP_PAY_URL', payUrl, context.production);
  // APP_ID: this deployment's id, sent as endPartnerName=dial:<APP_ID> (default: PUBLIC_URL's host name).
  const appId = read('APP_ID') ?? new URL(context.publicUrl).hostname;
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(appId)) {
    throw new ConfigError('APP_ID must be 1 to 64 letters, digits, dots, dashes or underscores.');
  }
  // ONRAMP_OFFERS: more ASSET:network pairs to offer, comma-separated (e.g. USDC:optimism).
  const offersText = read('ONRAMP_OFFERS');
  let extra: OnrampOffer[] = [];
  if (offersText !== undefined) {
    try {
      extra = parseOnrampOffers(offersText);
    } catch {
      throw new ConfigError(
        'ONRAMP_OFFERS must be ASSET:network pairs separated by commas (e.g. USDC:optimism), with an asset of USDC, ETH, BTC, SOL or POL.',
      );
    }
  }
  // ONRAMP_BTC_ADDRESS, ONRAMP_SOL_ADDRESS: a Bitcoin / Solana address to receive BTC / SOL; without one
  // that asset is not offered (Dial's wallet holds EVM assets only).
  const btcAddress = read('ONRAMP_BTC_ADDRESS') ?? null;
  if (
    btcAddress !== null &&
    !/^(bc1[02-9ac-hj-np-z]{11,87}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/.test(btcAddress)
  ) {
    throw new ConfigError('ONRAMP_BTC_ADDRESS must be a Bitcoin address (bc1…, 1… or 3…).');
  }
  const solAddress = read('ONRAMP_SOL_ADDRESS') ?? null;
  if (solAddress !== null && !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(solAddress)) {
    throw new ConfigError('ONRAMP_SOL_ADDRESS must be a Solana address (32 to 44 base58 characters).');
  }

  const offers = [...DEFAULT_ONRAMP_OFFERS];
  for (const offer of extra) {
    if (!offers.some((known) => known.asset === offer.asset && known.network === offer.network))
      offers.push(offer);
  }
  const common = { appId, offers, btcAddress, solAddress };
  if (keyId !== undefined && keySecret !== undefined && projectId !== undefined) {
    return {
      provider: 'coinbase',
      ...common,
      coinbase: {
        keyId,
        keySecret,
        projectId,
        apiUrl: (apiUrl ?? DEFAULT_ONRAMP_API_URL).replace(/\/+$/, ''),
        payUrl: payUrl ?? COINBASE_ONRAMP_PAY_URL,
      },
    };
  }
  // Without CDP keys: the sandbox, which credits the local chain; never in production, where the on-ramp is
  // then simply not offered.
  if (context.production || !context.localChainOn) return null;
  return { provider: 'sandbox', ...common, coinbase: null };
}

/** A CDP key secret is an EC private key in PEM, or 64 bytes of Ed25519 key in base64. */
function checkCdpSecret(secret: string): void {
  if (secret.includes('-----BEGIN')) {
    try {
      const key = createPrivateKey(secret);
      if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return;
    } catch {
      // Reported below.
    }
  } else if (/^[A-Za-z0-9+/]+={0,2}$/.test(secret) && Buffer.from(secret, 'base64').length === 64) {
    return;
  }
  throw new ConfigError(
    'CDP_API_KEY_SECRET must be the CDP key secret: an EC P-256 private key in PEM (-----BEGIN EC PRIVATE KEY-----…), or an Ed25519 key in base64.',
  );
}

/**
 * Reads a 32-byte key written as 64 hex characters or as base64.
 *
 * @throws {ConfigError} when it is neither, or not 32 bytes.
 */
export function parseKey(text: string): Uint8Array {
  const trimmed = text.trim();
  let bytes: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) bytes = Buffer.from(trimmed, 'hex');
  else if (/^[A-Za-z0-9+/]{43}=?$/.test(trimmed) || /^[A-Za-z0-9_-]{43}$/.test(trimmed)) {
    bytes = Buffer.from(trimmed, trimmed.includes('-') || trimmed.includes('_') ? 'base64url' : 'base64');
  }
  if (bytes?.length !== 32) {
    throw new ConfigError(
      'SHARE_ENCRYPTION_KEY must be 32 bytes written as 64 hex characters or as base64 ' +
        '(generate one with `openssl rand -hex 32`).',
    );
  }
  return new Uint8Array(bytes);
}

function readOrCreateKeyFile(dataDir: string): Uint8Array {
  const path = join(dataDir, KEY_FILE_NAME);
  mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx' fails when the file exists, so two servers starting at once cannot overwrite each other's key.
    writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    chmodSync(path, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new ConfigError(`Cannot write the generated key to ${path}: ${(error as Error).message}`);
    }
  }
  try {
    return parseKey(readFileSync(path, 'utf8'));
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new ConfigError(`${path} does not hold a valid key (64 hex characters): fix or remove it.`);
    }
    throw error;
  }
}

function parseAllowlist(text: string | undefined): Allowlist | null {
  if (text === undefined) return null;
  const emails = new Set<string>();
  const phones = new Set<string>();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    try {
      if (entry.includes('@')) {
        emails.add(normalizeEmail(entry));
      } else {
        const phone = parsePhone(entry);
        if (!isValidPhone(phone)) throw new ConfigError('invalid');
        phones.add(toE164(phone));
      }
    } catch (error) {
      if (error instanceof ConfigError || isDialError(error)) {
        throw new ConfigError(
          `ALLOWLIST has an entry that is neither an e-mail address nor a valid phone number in international form (+44…): ${JSON.stringify(entry)}`,
        );
      }
      throw error;
    }
  }
  return { emails: [...emails], phones: [...phones] };
}

const RPC_URL_PREFIX = 'RPC_URL_';

function parseRpcUrls(
  env: NodeJS.ProcessEnv,
  read: (name: string) => string | undefined,
): Readonly<Record<number, string>> {
  const supported = SUPPORTED_CHAINS.map((chain) => chain.id);
  const rpcUrls: Record<number, string> = {};
  const names = Object.keys(env)
    .filter((name) => name.startsWith(RPC_URL_PREFIX))
    .sort();
  for (const name of names) {
    const text = read(name);
    if (text === undefined) continue;
    const idText = name.slice(RPC_URL_PREFIX.length);
    const id = Number(idText);
    if (!/^[1-9]\d*$/.test(idText) || !supported.includes(id)) {
      throw new ConfigError(
        `${name} does not name a supported chain: use RPC_URL_<chainId> with one of ${supported.join(', ')}` +
          `${id === LOCAL_CHAIN_ID ? ' (the local chain is set with LOCAL_CHAIN_URL)' : ''}.`,
      );
    }
    rpcUrls[id] = rpcUrl(name, text);
  }
  return Object.freeze(rpcUrls);
}

/** Parses an http:// or https:// URL, or stops with a ConfigError naming the variable. */
function httpUrl(name: string, text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL, not ${JSON.stringify(text)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http:// or https:// URL, not ${JSON.stringify(text)}.`);
  }
  return url;
}

/** An on-ramp URL: http(s), and https in production (it carries a signed JWT or a session token). */
function onrampUrl(name: string, text: string, production: boolean): void {
  const url = httpUrl(name, text);
  if (production && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an https:// URL in production, not ${JSON.stringify(text)}.`);
  }
}

/** Checks a JSON-RPC URL the browser will fetch: http(s), without credentials (fetch refuses those). */
function rpcUrl(name: string, text: string): string {
  const url = httpUrl(name, text);
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(
      `${name} must not hold a user name or password (user:password@): browsers refuse to fetch such URLs. ` +
        'Put the API key in the path or query, as RPC providers do.',
    );
  }
  return text;
}

/**
 * Checks `REDIS_URL`: redis:// or rediss://, a host, and at most a database number as the path. The
 * message never repeats the value, which may hold a password.
 */
function checkRedisUrl(text: string): string {
  const usage =
    'REDIS_URL must be a Redis URL: redis://[user:password@]host[:port][/database], or rediss://… for TLS ' +
    '(for example redis://127.0.0.1:6379/0); leave it unset to keep rate limits in the database.';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(usage);
  }
  if (!['redis:', 'rediss:'].includes(url.protocol) || url.hostname === '') throw new ConfigError(usage);
  if (!/^(\/(\d+)?)?$/.test(url.pathname) || url.search !== '' || url.hash !== '')
    throw new ConfigError(usage);
  return text;
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}.`);
  }
  return value as T;
}

function integer(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(
      `${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(text)}.`,
    );
  }
  return value;
}

/**
 * A timeout in seconds that Node's timers keep: at least a millisecond (less rounds to 0, which Node reads
 * as "no timeout") and below 2^31 ms (more overflows to 1 ms, closing every connection at once).
 */
function timeoutSeconds(name: string, text: string | undefined, fallback: number): number {
  const value = positiveNumber(name, text, fallback);
  if (value < 0.001 || value * 1000 > 2_147_483_647) {
    throw new ConfigError(`${name} must be from 0.001 to 2147483 seconds, not ${JSON.stringify(text)}.`);
  }
  return value;
}

function positiveNumber(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(value > 0)) {
    throw new ConfigError(`${name} must be a positive number, not ${JSON.stringify(text)}.`);
  }
  return value;
}

/** Checks an http(s) URL and returns its origin; `allowPath` accepts a path after the origin. */
function origin(name: string, text: string, allowPath = false): string {
  const url = httpUrl(name, text);
  if (!allowPath && (url.pathname !== '/' || url.search !== '' || url.hash !== '')) {
    throw new ConfigError(
      `${name} must be an origin only (like https://wallet.example.com), without a path: ${JSON.stringify(text)}.`,
    );
  }
  return url.origin;
}
