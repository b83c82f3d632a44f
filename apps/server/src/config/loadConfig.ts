import { join } from 'node:path';
import { DEFAULT_ONRAMP_OFFERS, LOCAL_CHAIN_ID, SECOND_MS } from '@dial/core';
import { parseEther } from 'viem';
import type {
  AppConfig,
  LoadedConfig,
  LocalChainConfig,
  OnrampConfig,
  PaymasterConfig,
  PriceConfig,
  RedisConfig,
  ShareKeySource,
  SponsorshipConfig,
} from './appConfig.js';
import { ConfigError } from './configError.js';
import { decideOnrampProvider } from './decideOnrampProvider.js';
import { isLoopbackHost } from './isLoopbackHost.js';
import { DEFAULT_OTP_POLICY } from './otpPolicy.js';
import { appId, httpUrl } from './parsers.js';
import { RATE_LIMITS } from './rateLimits.js';
import { readVariables } from './variable.js';
import { CONFIG_VARIABLES, DEFAULT_HTTP_LIMITS } from './variables.js';

/** Every variable of the table, read. */
type ConfigValues = ReturnType<typeof readVariables<typeof CONFIG_VARIABLES>>;

/** The prefix of Dial's rate-limit keys in Redis: `dial:rate:otp-start:ip:203.0.113.9`. */
export const REDIS_KEY_PREFIX = 'dial:rate:';

/** The generated master key's file in `DATA_DIR`, outside production without `SHARE_ENCRYPTION_KEY`. */
export const KEY_FILE_NAME = 'share-encryption.key';

/**
 * Reads and checks the configuration from environment variables: each variable of the table
 * (`CONFIG_VARIABLES`) by its own parser, then the rules between them. Throws a {@link ConfigError} whose
 * message names the variable at fault, so the server refuses to start rather than running half-configured.
 * Reads no file and writes none: where the master key is to be generated, it says so (`shareKey`).
 *
 * @param env - The variables; `process.env` by default.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const v = readVariables(CONFIG_VARIABLES, env);
  const environment = v.NODE_ENV;
  const production = environment === 'production';

  // The dev outbox publishes every sign-in code: outside production (development and test alike), only a
  // loopback interface, unless DEV_ALLOW_REMOTE=true says so explicitly (then buildApp logs a warning).
  if (v.DEV_ALLOW_REMOTE && production) {
    throw new ConfigError(
      'DEV_ALLOW_REMOTE is for development only (production has no dev outbox): remove it.',
    );
  }
  if (!production && !v.DEV_ALLOW_REMOTE && !isLoopbackHost(v.HOST)) {
    throw new ConfigError(
      `HOST=${v.HOST} would let other machines reach this development server, whose dev outbox ` +
        '(/dev/outbox) shows every sign-in code to anyone who can open it. Run a server others reach with ' +
        'NODE_ENV=production (in a container too); keep HOST=127.0.0.1 for development; or set ' +
        'DEV_ALLOW_REMOTE=true if you accept that everyone on that network can sign in as anyone.',
    );
  }

  const publicUrl = v.PUBLIC_URL ?? `http://localhost:${v.PORT}`;
  const deploymentId = v.APP_ID ?? appId(new URL(publicUrl).hostname, 'APP_ID');
  const allowedOrigins = new Set([publicUrl]);
  if (environment === 'development') {
    allowedOrigins.add(`http://localhost:${v.PORT}`);
    allowedOrigins.add(`http://127.0.0.1:${v.PORT}`);
  }

  let shareKey: ShareKeySource;
  if (v.SHARE_ENCRYPTION_KEY !== undefined) {
    shareKey = { kind: 'value', key: v.SHARE_ENCRYPTION_KEY };
  } else if (production) {
    throw new ConfigError(
      'SHARE_ENCRYPTION_KEY is required in production: set it to 32 random bytes as 64 hex characters ' +
        '(for example the output of `openssl rand -hex 32`), and back it up.',
    );
  } else {
    shareKey = { kind: 'file', path: join(v.DATA_DIR, KEY_FILE_NAME) };
  }

  const twilioParts = [v.TWILIO_ACCOUNT_SID, v.TWILIO_AUTH_TOKEN, v.TWILIO_FROM];
  const twilioSet = twilioParts.filter((part) => part !== undefined).length;
  if (twilioSet !== 0 && twilioSet !== 3) {
    throw new ConfigError('Set all three of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM, or none.');
  }
  const twilio =
    v.TWILIO_ACCOUNT_SID !== undefined && v.TWILIO_AUTH_TOKEN !== undefined && v.TWILIO_FROM !== undefined
      ? {
          accountSid: v.TWILIO_ACCOUNT_SID,
          authToken: v.TWILIO_AUTH_TOKEN,
          from: v.TWILIO_FROM,
          apiUrl: v.TWILIO_API_URL,
        }
      : undefined;

  const localChainOn = v.LOCAL_CHAIN ?? (environment === 'development' ? 'on' : 'off');
  if (localChainOn === 'on' && production) {
    throw new ConfigError('LOCAL_CHAIN=on is for development only: remove it, or set LOCAL_CHAIN=off.');
  }
  const localChain: LocalChainConfig | null =
    localChainOn === 'off'
      ? null
      : v.LOCAL_CHAIN_URL !== undefined
        ? { start: false, port: v.LOCAL_CHAIN_PORT, rpcUrl: v.LOCAL_CHAIN_URL }
        : {
            start: true,
            port: v.LOCAL_CHAIN_PORT,
            rpcUrl: `http://127.0.0.1:${v.LOCAL_CHAIN_PORT}`,
            bundlerPort: v.LOCAL_BUNDLER_PORT,
          };

  const requestTimeoutSeconds = v.REQUEST_TIMEOUT_SECONDS;
  const headersTimeoutSeconds =
    v.HEADERS_TIMEOUT_SECONDS ?? Math.min(DEFAULT_HTTP_LIMITS.headersTimeoutSeconds, requestTimeoutSeconds);
  if (headersTimeoutSeconds > requestTimeoutSeconds) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_SECONDS (${headersTimeoutSeconds}) must not be more than REQUEST_TIMEOUT_SECONDS ` +
        `(${requestTimeoutSeconds}): the request timeout covers the headers too.`,
    );
  }

  const redis: RedisConfig | null =
    v.REDIS_URL === undefined ? null : { url: v.REDIS_URL, keyPrefix: REDIS_KEY_PREFIX };

  return {
    environment,
    host: v.HOST,
    devAllowRemote: v.DEV_ALLOW_REMOTE,
    port: v.PORT,
    publicUrl,
    appId: deploymentId,
    allowedOrigins: [...allowedOrigins],
    dataDir: v.DATA_DIR,
    databaseUrl: v.DATABASE_URL,
    redis,
    shareKey,
    mail: { smtpUrl: v.SMTP_URL, from: v.MAIL_FROM },
    twilio,
    allowlist: v.ALLOWLIST ?? null,
    maxUsers: v.MAX_USERS ?? null,
    maxSignInMethods: v.MAX_SIGN_IN_METHODS,
    maxWalletDevices: v.MAX_WALLET_DEVICES,
    coolingOffHours: v.COOLING_OFF_HOURS,
    walletConnect: walletConnectOf(v, environment),
    localChain,
    rpcUrls: v['RPC_URL_<chainId>'],
    session: { idleHours: v.SESSION_IDLE_HOURS, maxDays: v.SESSION_MAX_DAYS },
    trustProxy: v.TRUST_PROXY,
    ipv6PrefixLength: v.IPV6_PREFIX_LENGTH,
    http: {
      requestTimeoutSeconds,
      headersTimeoutSeconds,
      idleTimeoutSeconds: v.IDLE_TIMEOUT_SECONDS,
      maxConnections: v.MAX_CONNECTIONS,
    },
    logLevel: v.LOG_LEVEL,
    webDistDir: v.WEB_DIST_DIR,
    otp: DEFAULT_OTP_POLICY,
    // The table's numbers, with the per-IP code limits people may raise (many people behind one address).
    rateLimits: {
      ...RATE_LIMITS,
      otpStartsPerIp: { ...RATE_LIMITS.otpStartsPerIp, max: v.OTP_STARTS_PER_IP },
      otpVerifiesPerIp: { ...RATE_LIMITS.otpVerifiesPerIp, max: v.OTP_VERIFIES_PER_IP },
    },
    onramp: onrampOf(v, { environment, localChain, publicUrl, appId: deploymentId }),
    chainWatch: {
      intervalMs: v.CHAIN_WATCH_INTERVAL_SECONDS * SECOND_MS,
      modes: Object.fromEntries(
        Object.entries(v['WATCH_CHAIN_<chainId>']).map(([chainId, mode]) => [Number(chainId), mode]),
      ),
    },
    prices: pricesOf(v, environment),
    sponsorship: sponsorshipOf(v, { localChain, publicUrl }),
  };
}

/** What the local chain's operator pays per day by default: 1 (test) ETH. */
export const LOCAL_SPONSOR_DAILY_CAP_WEI = parseEther('1');

/**
 * User operations and sponsored fees: the bundlers, the paymasters (Dial's own, signed with
 * `PAYMASTER_SIGNER_KEY`, or an external ERC-7677 service), the policy and its limits. A started local chain
 * gets its own bundler's URL, `transfers` and a 1 ETH cap by default; its DialPaymaster (address and the dev
 * signer's key) is filled in by `main.ts` once the chain runs. A paymaster needs a bundler and a daily cap
 * on its chain, and Dial's own needs the signer key: the server refuses to start half-configured.
 */
function sponsorshipOf(
  v: ConfigValues,
  context: { localChain: LocalChainConfig | null; publicUrl: string },
): SponsorshipConfig {
  const numbered = <T>(family: Readonly<Record<string, T>>) =>
    Object.fromEntries(Object.entries(family).map(([id, value]) => [Number(id), value])) as Record<number, T>;
  const bundlerUrls = numbered(v['BUNDLER_URL_<chainId>']);
  const dailyCapsWei = numbered(v['SPONSOR_DAILY_CAP_<chainId>']);
  const localStarted = context.localChain?.start === true;
  if (localStarted) {
    bundlerUrls[LOCAL_CHAIN_ID] ??= `http://127.0.0.1:${v.LOCAL_BUNDLER_PORT}`;
    dailyCapsWei[LOCAL_CHAIN_ID] ??= LOCAL_SPONSOR_DAILY_CAP_WEI;
  }
  const paymasters: Record<number, PaymasterConfig> = {};
  for (const [id, address] of Object.entries(numbered(v['PAYMASTER_ADDRESS_<chainId>']))) {
    paymasters[Number(id)] = { kind: 'dial', address };
  }
  for (const [id, url] of Object.entries(numbered(v['PAYMASTER_URL_<chainId>']))) {
    if (paymasters[Number(id)] !== undefined) {
      throw new ConfigError(
        `Set PAYMASTER_ADDRESS_${id} (Dial's own paymaster) or PAYMASTER_URL_${id} (an external one), not both.`,
      );
    }
    paymasters[Number(id)] = { kind: 'external', url };
  }
  for (const [id, paymaster] of Object.entries(paymasters)) {
    if (bundlerUrls[Number(id)] === undefined) {
      throw new ConfigError(`A paymaster for chain ${id} needs a bundler: set BUNDLER_URL_${id}.`);
    }
    if (dailyCapsWei[Number(id)] === undefined) {
      throw new ConfigError(
        `A paymaster for chain ${id} needs a daily cap: set SPONSOR_DAILY_CAP_${id} (native currency per UTC day, e.g. 0.05).`,
      );
    }
    if (paymaster.kind === 'dial' && v.PAYMASTER_SIGNER_KEY === undefined) {
      throw new ConfigError(
        `PAYMASTER_ADDRESS_${id} needs PAYMASTER_SIGNER_KEY, the key the paymaster's signer is set to.`,
      );
    }
  }
  return {
    bundlerUrls,
    paymasters,
    signerKey: v.PAYMASTER_SIGNER_KEY ?? null,
    calls: v.SPONSOR_CALLS ?? (context.localChain !== null ? 'transfers' : 'off'),
    accountDailyLimit: v.SPONSOR_ACCOUNT_DAILY_LIMIT,
    dailyCapsWei,
    operatorName: v.OPERATOR_NAME ?? new URL(context.publicUrl).hostname,
    operatorToken: v.OPERATOR_TOKEN ?? null,
  };
}

/** The price source: `sandbox` outside production and `coinbase` in production by default; no sandbox there. */
function pricesOf(v: ConfigValues, environment: AppConfig['environment']): PriceConfig {
  const production = environment === 'production';
  const source = v.PRICE_SOURCE ?? (production ? 'coinbase' : 'sandbox');
  if (source === 'sandbox' && production) {
    throw new ConfigError(
      'PRICE_SOURCE=sandbox gives made-up test prices and is for development only: use coinbase or off.',
    );
  }
  if (production && source === 'coinbase' && httpUrl(v.PRICE_URL, 'PRICE_URL').protocol !== 'https:') {
    throw new ConfigError(
      `PRICE_URL must be an https:// URL in production, not ${JSON.stringify(v.PRICE_URL)}.`,
    );
  }
  return { source, url: v.PRICE_URL.replace(/\/+$/, '') };
}

/** The on-ramp's settings, the rules between `CDP_*`, `ONRAMP_*` and `APP_ID`, and its provider. */
function onrampOf(
  v: ConfigValues,
  context: Pick<AppConfig, 'environment' | 'localChain' | 'publicUrl' | 'appId'>,
): OnrampConfig | null {
  const keyId = v.CDP_API_KEY_ID;
  const keySecret = v.CDP_API_KEY_SECRET;
  const projectId = v.CDP_PROJECT_ID;
  if ((keyId === undefined) !== (keySecret === undefined)) {
    throw new ConfigError(
      'Set both CDP_API_KEY_ID and CDP_API_KEY_SECRET (a CDP Secret API key), or neither.',
    );
  }
  if (keyId !== undefined && projectId === undefined) {
    throw new ConfigError('CDP_PROJECT_ID is required with CDP_API_KEY_ID: set it to your CDP project id.');
  }
  // In production both must be https: the API call carries the signed JWT, the buy page the session token.
  if (context.environment === 'production') {
    for (const name of ['ONRAMP_API_URL', 'ONRAMP_PAY_URL'] as const) {
      if (httpUrl(v[name], name).protocol !== 'https:') {
        throw new ConfigError(
          `${name} must be an https:// URL in production, not ${JSON.stringify(v[name])}.`,
        );
      }
    }
  }
  const offers = [...DEFAULT_ONRAMP_OFFERS];
  for (const offer of v.ONRAMP_OFFERS ?? []) {
    if (!offers.some((known) => known.asset === offer.asset && known.network === offer.network))
      offers.push(offer);
  }
  const coinbase =
    keyId !== undefined && keySecret !== undefined && projectId !== undefined
      ? {
          keyId,
          keySecret,
          projectId,
          apiUrl: v.ONRAMP_API_URL.replace(/\/+$/, ''),
          payUrl: v.ONRAMP_PAY_URL,
        }
      : null;
  const provider = decideOnrampProvider({ ...context, coinbase });
  if (provider === 'off') return null;
  return {
    provider,
    appId: context.appId,
    coinbase,
    offers,
    btcAddress: v.ONRAMP_BTC_ADDRESS ?? null,
    solAddress: v.ONRAMP_SOL_ADDRESS ?? null,
  };
}

/** WalletConnect's settings: both variables or neither; a `wss://` relay in production. */
function walletConnectOf(v: ConfigValues, environment: AppConfig['environment']): AppConfig['walletConnect'] {
  const projectId = v.WALLETCONNECT_PROJECT_ID;
  const relayUrl = v.WALLETCONNECT_RELAY_URL;
  if ((projectId === undefined) !== (relayUrl === undefined)) {
    throw new ConfigError(
      'Set both WALLETCONNECT_PROJECT_ID and WALLETCONNECT_RELAY_URL to offer WalletConnect, or neither.',
    );
  }
  if (projectId === undefined || relayUrl === undefined) return null;
  if (environment === 'production' && !relayUrl.startsWith('wss:')) {
    throw new ConfigError(
      `WALLETCONNECT_RELAY_URL must be a wss:// URL in production, not ${JSON.stringify(relayUrl)}.`,
    );
  }
  return { projectId, relayUrl };
}
