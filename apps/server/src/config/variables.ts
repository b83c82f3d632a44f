import { fileURLToPath } from 'node:url';
import { COINBASE_ONRAMP_PAY_URL, LOCAL_CHAIN_ID, SUPPORTED_CHAINS } from '@dial/core';
import { type Address, getAddress, type Hex, isAddress, parseEther } from 'viem';
import { SERVER_ROOT } from '../serverRoot.js';
import type { ChainWatchMode, Environment, HttpLimits, LogLevel } from './appConfig.js';
import { ConfigError } from './configError.js';
import { parseAllowlist } from './parseAllowlist.js';
import { parseKey } from './parseKey.js';
import {
  absolutePath,
  appId,
  bitcoinAddress,
  boolean,
  cdpProjectId,
  cdpSecret,
  httpUrlText,
  integer,
  oneOf,
  onrampOffers,
  origin,
  type Parser,
  positiveNumber,
  postgresUrl,
  redisUrl,
  rpcUrl,
  smtpUrl,
  solanaAddress,
  text,
  timeoutSeconds,
  walletConnectProjectId,
  webSocketUrl,
} from './parsers.js';
import { parseTrustProxy } from './parseTrustProxy.js';
import { RATE_LIMITS } from './rateLimits.js';
import type { ConfigEntry } from './variable.js';

const ENVIRONMENTS: readonly Environment[] = ['development', 'production', 'test'];
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The built web app, next to this server in the repository: `apps/web/dist` (from `src/` or `dist/`). */
export const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../web/dist', SERVER_ROOT));

/** Coinbase's Onramp API base; the session token endpoint is `<base>/v1/token`. */
export const DEFAULT_ONRAMP_API_URL = 'https://api.developer.coinbase.com/onramp';

/** Coinbase's public API base; spot prices are `<base>/v2/prices/<ASSET>-<CURRENCY>/spot`. */
export const DEFAULT_PRICE_URL = 'https://api.coinbase.com';

/** The HTTP limits without `REQUEST_TIMEOUT_SECONDS`, `HEADERS_TIMEOUT_SECONDS`, … set. */
export const DEFAULT_HTTP_LIMITS: Readonly<HttpLimits> = {
  requestTimeoutSeconds: 30,
  headersTimeoutSeconds: 10,
  // Above the 60 s idle timeout of common load balancers, so they never reuse a connection Dial just closed.
  idleTimeoutSeconds: 65,
  maxConnections: 1000,
};

/** Each `RPC_URL_<chainId>`: a supported chain's id after the prefix, and an RPC URL browsers can fetch. */
function chainRpcUrl(value: string, name: string): string {
  const supported = SUPPORTED_CHAINS.map((chain) => chain.id);
  const idText = name.slice('RPC_URL_'.length);
  const id = Number(idText);
  if (!/^[1-9]\d*$/.test(idText) || !supported.includes(id)) {
    throw new ConfigError(
      `${name} does not name a supported chain: use RPC_URL_<chainId> with one of ${supported.join(', ')}` +
        `${id === LOCAL_CHAIN_ID ? ' (the local chain is set with LOCAL_CHAIN_URL)' : ''}.`,
    );
  }
  return rpcUrl(value, name);
}

/** Each `WATCH_CHAIN_<chainId>`: a supported chain's id (or the local chain's) and `blocks`, `logs` or `off`. */
function chainWatchMode(value: string, name: string): ChainWatchMode {
  const idText = name.slice('WATCH_CHAIN_'.length);
  const id = Number(idText);
  const known = [...SUPPORTED_CHAINS.map((chain) => chain.id), LOCAL_CHAIN_ID];
  if (!/^[1-9]\d*$/.test(idText) || !known.includes(id)) {
    throw new ConfigError(
      `${name} does not name a supported chain: use WATCH_CHAIN_<chainId> with one of ${known.join(', ')}.`,
    );
  }
  return oneOf<ChainWatchMode>(['blocks', 'logs', 'off'])(value, name);
}

/** A family's chain id (`BUNDLER_URL_8453` → 8453): a supported chain's or the local chain's. */
function familyChainId(name: string, prefix: string): number {
  const idText = name.slice(prefix.length);
  const id = Number(idText);
  const known = [...SUPPORTED_CHAINS.map((chain) => chain.id), LOCAL_CHAIN_ID];
  if (!/^[1-9]\d*$/.test(idText) || !known.includes(id)) {
    throw new ConfigError(
      `${name} does not name a supported chain: use ${prefix}<chainId> with one of ${known.join(', ')}.`,
    );
  }
  return id;
}

/** `BUNDLER_URL_<chainId>`, `PAYMASTER_URL_<chainId>`: an http(s) URL for a known chain. */
function chainServiceUrl(prefix: string): Parser<string> {
  return (value, name) => {
    familyChainId(name, prefix);
    return httpUrlText(value, name);
  };
}

/** `PAYMASTER_ADDRESS_<chainId>`: a contract address (checksummed here). */
function paymasterAddress(value: string, name: string): Address {
  familyChainId(name, 'PAYMASTER_ADDRESS_');
  if (!isAddress(value, { strict: false })) {
    throw new ConfigError(
      `${name} must be a contract address (0x and 40 hex digits), not ${JSON.stringify(value)}.`,
    );
  }
  return getAddress(value);
}

/** `SPONSOR_DAILY_CAP_<chainId>`: a decimal amount of the chain's native currency (`0.05`), in wei. */
function dailyCapWei(value: string, name: string): bigint {
  familyChainId(name, 'SPONSOR_DAILY_CAP_');
  if (!/^\d+(\.\d{1,18})?$/.test(value)) {
    throw new ConfigError(
      `${name} must be an amount of the chain's native currency like 0.05 (at most 18 decimals), not ${JSON.stringify(value)}.`,
    );
  }
  return parseEther(value);
}

/** `PAYMASTER_SIGNER_KEY`: a secp256k1 private key, 0x and 64 hex digits. */
const paymasterSignerKey: Parser<Hex> = (value, name) => {
  if (!/^0x[0-9a-fA-F]{64}$/.test(value)) {
    throw new ConfigError(`${name} must be a private key: 0x and 64 hex digits.`);
  }
  return value as Hex;
};

/** `OPERATOR_TOKEN`: a bearer token long enough not to be guessed. */
const operatorToken: Parser<string> = (value, name) => {
  if (value.length < 32 || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError(
      `${name} must be at least 32 printable characters without spaces (for example \`openssl rand -hex 32\`).`,
    );
  }
  return value;
};

/**
 * Every environment variable the server reads, in the README's order: its default, its parser, and its
 * README row (`npm run docs:config` writes the README's configuration table from it). A parser checks its
 * own variable only; what depends on several (defaults taken from others, what production requires) is
 * written once, after all are read, in `loadConfig`.
 */
export const CONFIG_VARIABLES = {
  NODE_ENV: {
    default: 'development',
    parse: oneOf(ENVIRONMENTS),
    doc:
      '`development`, `production` or `test`. Production turns off the dev outbox, the dev routes and ' +
      'the local chain, requires `SHARE_ENCRYPTION_KEY`, marks the session cookie `Secure` and sends ' +
      'HSTS.',
  },
  PORT: {
    default: '8080',
    parse: integer(0, 65_535),
    doc: 'The port that serves the web app and the API.',
  },
  HOST: {
    default: '127.0.0.1',
    parse: text,
    doc:
      'The interface to listen on. Outside production (`development` and `test`) only a loopback one ' +
      '(`127.0.0.1`, `localhost`, `::1`): the dev outbox publishes every sign-in code, so a ' +
      'development server others can reach lets them sign in as anyone, and the server refuses to ' +
      'start. A server others reach (in a container too, where you would set `HOST=0.0.0.0`) runs with ' +
      '`NODE_ENV=production`.',
  },
  DEV_ALLOW_REMOTE: {
    default: 'false',
    parse: boolean,
    doc:
      '`true` lets a development (or test) server listen on another `HOST` (say, to try it from a ' +
      'phone on your own network), knowing that anyone who can reach the port can read every code at ' +
      '`/dev/outbox`; it logs a warning saying so at start. Refused in production.',
  },
  PUBLIC_URL: {
    parse: origin,
    defaultDoc: '`http://localhost:$PORT`',
    doc:
      'The origin people open. State-changing requests from any other origin are refused (in ' +
      'development `http://127.0.0.1:$PORT` is accepted too).',
  },
  DATA_DIR: {
    default: './data',
    parse: absolutePath,
    doc: 'Where the SQLite database and the generated development key live.',
  },
  DATABASE_URL: {
    parse: postgresUrl,
    defaultDoc: 'unset (SQLite at `$DATA_DIR/dial.sqlite`)',
    doc:
      '`postgres://user:password@host:5432/db` to use PostgreSQL; several servers can share it. ' +
      'Migrations run at start. Each connection keeps a few prepared statements (the queries every request ' +
      'runs), so behind PgBouncer use session pooling, or transaction pooling with `max_prepared_statements` ' +
      'set (PgBouncer 1.21 or later).',
  },
  REDIS_URL: {
    parse: redisUrl,
    defaultDoc: 'unset (rate-limit counters in the database)',
    doc:
      '`redis://[user:password@]host:6379[/database]`, or `rediss://…` for TLS, to keep the rate-limit ' +
      'counters in Redis instead (keys `dial:rate:<limit>:<subject>`, each expiring with its window; ' +
      'use a database number of its own per deployment). Every server behind a load balancer must use ' +
      'the same one. The server does not start when it cannot reach it; if Redis fails later, requests ' +
      'that need a limit get `503 rate_limit_unavailable` with `Retry-After: 5` (never let through) ' +
      'until it is back, and the client reconnects by itself. Servers also wake each other through it ' +
      'so that a wallet event reaches the open page at once (without it each server reads new events from ' +
      'the database once a second), on the pub/sub channel `dial:rate:wallet-events:<database>:<APP_ID>`. ' +
      "Redis pub/sub ignores the database number, so the channel's name carries it and the deployment's " +
      "`APP_ID`: deployments sharing one Redis never wake each other nor see each other's user ids (the " +
      'servers of one deployment share both).',
  },
  SHARE_ENCRYPTION_KEY: {
    parse: parseKey,
    defaultDoc: 'generated into `$DATA_DIR/share-encryption.key` outside production',
    doc:
      '32 random bytes as 64 hex characters or base64 (`openssl rand -hex 32`). Encrypts stored auth ' +
      'shares (AES-256-GCM) and keys the one-time-code hashes and the proof-of-work challenges. ' +
      'Required in production; losing it makes every stored auth share unreadable.',
  },
  SMTP_URL: {
    parse: smtpUrl,
    defaultDoc: 'unset (e-mail codes go to the dev outbox; in production e-mail sign-in is off)',
    doc: '`smtp://user:password@host:587` or `smtps://…:465`, to send codes by e-mail.',
  },
  MAIL_FROM: {
    default: 'Dial <no-reply@localhost>',
    parse: text,
    doc: 'The sender of code e-mails.',
  },
  TWILIO_ACCOUNT_SID: {
    parse: text,
    defaultDoc: 'unset (SMS codes go to the dev outbox; in production SMS sign-in is off)',
    doc:
      "All three send codes by SMS through Twilio's Messages API. `TWILIO_FROM` is an E.164 number or " +
      'a Messaging Service SID (`MG…`).',
  },
  TWILIO_AUTH_TOKEN: { parse: text, docWith: 'TWILIO_ACCOUNT_SID' },
  TWILIO_FROM: { parse: text, docWith: 'TWILIO_ACCOUNT_SID' },
  TWILIO_API_URL: {
    parse: httpUrlText,
    defaultDoc: "Twilio's API",
    doc: 'Another Twilio-compatible API base (https, or http on loopback for tests).',
  },
  ALLOWLIST: {
    parse: parseAllowlist,
    defaultDoc: 'unset (anyone may sign up)',
    doc:
      'Comma-separated e-mail addresses, phone numbers in international form (`+44…`; a national number ' +
      'is refused at start) and wallet addresses (`0x…`, for ' +
      'sign-in with a wallet) allowed to create an account; ' +
      'others get `allowlist_rejected`. Existing users always sign in.',
  },
  MAX_USERS: {
    parse: integer(0, Number.MAX_SAFE_INTEGER),
    defaultDoc: 'unset (no limit)',
    doc:
      'The most accounts this server creates; further sign-ups get `max_accounts_reached`. Existing ' +
      'users always sign in.',
  },
  MAX_SIGN_IN_METHODS: {
    default: '5',
    parse: integer(1, 100),
    doc:
      'The most sign-in methods (phone numbers, e-mail addresses, wallets) one account may link; ' +
      'linking more gets `methods_limit_reached`.',
  },
  MAX_WALLET_DEVICES: {
    default: '10',
    parse: integer(1, 100),
    doc:
      'The most devices (browsers that can open the wallet, each with a split of the key of its own) one ' +
      'wallet may have at once; enrolling or linking more gets `devices_limit_reached`. A removed device no ' +
      'longer counts.',
  },
  COOLING_OFF_HOURS: {
    default: '48',
    parse: integer(1, 24 * 30),
    doc:
      'How long a change to the account asked for without the key’s proof waits before it is made (linking ' +
      'or removing a sign-in method, ending other sessions, a phone number’s findability, making a wallet ' +
      'the account’s, forgetting a browser). Every method and signed-in browser of the account is told at ' +
      'once, and any session with the proof can cancel it. A browser holding its wallet proves the key ' +
      'without a prompt, so the owner does not wait.',
  },
  WALLETCONNECT_PROJECT_ID: {
    parse: walletConnectProjectId,
    defaultDoc: 'unset (no WalletConnect)',
    doc:
      'Your WalletConnect (Reown) project id, 32 hex digits. With `WALLETCONNECT_RELAY_URL`, sign-in ' +
      'offers "WalletConnect" (a QR code a wallet on another device scans); without both it is not offered.',
  },
  WALLETCONNECT_RELAY_URL: {
    parse: webSocketUrl,
    defaultDoc: 'unset (no WalletConnect)',
    doc:
      'The WalletConnect relay the browser connects to, `wss://…` (`wss://relay.walletconnect.com` is ' +
      "WalletConnect's own); `ws://` only outside production.",
  },
  LOCAL_CHAIN: {
    parse: oneOf(['on', 'off']),
    defaultDoc: '`on` in development, else `off`',
    doc:
      'Runs the local EVM chain (id 31337, "Local") with a funded faucet, and the "Get test ETH" ' +
      'action. Refused in production.',
  },
  LOCAL_CHAIN_PORT: {
    default: '8545',
    parse: integer(0, 65_535),
    doc: "The local chain's port, on loopback.",
  },
  LOCAL_CHAIN_URL: {
    parse: httpUrlText,
    doc:
      'Use a development chain already running there instead of starting one (it then has no test ' +
      'USDC: `/api/config` gives `usdc: null`).',
  },
  'RPC_URL_<chainId>': {
    prefix: 'RPC_URL_',
    example: 'RPC_URL_8453',
    parse: chainRpcUrl,
    defaultDoc: "the chain's public RPC from viem's chain definition (rate-limited)",
    doc:
      'The JSON-RPC endpoint the web app and the server read that chain from (the server checks every ' +
      'recorded transfer through it, so point it at a provider you trust), one variable per chain: ' +
      '`137` Polygon, `42161` Arbitrum One, `8453` Base, `84532` Base Sepolia, `7777777` Zora (another ' +
      'id stops the server at start). An http(s) URL without `user:password@`, e.g. ' +
      '`RPC_URL_137=https://polygon.example.com/v1/KEY`; use https in production. Browsers call it ' +
      'directly (it is sent to them in `/api/config`, and its origin is allowed by the ' +
      'Content-Security-Policy), so **an API key in it is visible to anyone who opens the app**: use a ' +
      'key your provider lets you restrict (to your origin, rate-limited).',
  },
  CHAIN_WATCH_INTERVAL_SECONDS: {
    default: '5',
    parse: integer(0, 3600),
    doc:
      'How often each server looks for new blocks on the watched chains (see `WATCH_CHAIN_<chainId>`); ' +
      'servers share the work through the database, so no block range is read twice. `0` turns the ' +
      'watcher off on this server.',
  },
  'WATCH_CHAIN_<chainId>': {
    prefix: 'WATCH_CHAIN_',
    example: 'WATCH_CHAIN_8453',
    parse: chainWatchMode,
    defaultDoc:
      '`blocks` for the local chain (31337); `logs` for a chain with `RPC_URL_<chainId>` set; else `off`',
    doc:
      'How the server finds money that reaches account wallets on that chain from outside Dial, for the ' +
      'history: `logs` reads the USDC `Transfer` logs (`eth_getLogs`), and sees native value as a rise of ' +
      'the balance no known transaction explains (checked for wallets with recent activity); `blocks` also ' +
      "reads every block's transactions for native value (for an RPC that allows it: one call per block); " +
      '`off`. A new chain is watched from its latest block on.',
  },
  'BUNDLER_URL_<chainId>': {
    prefix: 'BUNDLER_URL_',
    example: 'BUNDLER_URL_8453',
    parse: chainServiceUrl('BUNDLER_URL_'),
    defaultDoc:
      'unset (no user operations on that chain); the local chain: its own bundler (`LOCAL_BUNDLER_PORT`)',
    doc:
      'A standard ERC-4337 bundler for that chain (EntryPoint v0.8), hosted or self-run. Browsers never see ' +
      "it: they send user operations to `/api/bundler/<chainId>`, which passes on only the user operation's " +
      "methods, each for the session's own wallet, so an API key in the URL stays on the server.",
  },
  'PAYMASTER_URL_<chainId>': {
    prefix: 'PAYMASTER_URL_',
    example: 'PAYMASTER_URL_8453',
    parse: chainServiceUrl('PAYMASTER_URL_'),
    defaultDoc: 'unset',
    doc:
      "An external ERC-7677 paymaster service that pays that chain's fees: Dial checks its own policy " +
      '(`SPONSOR_CALLS`, the limits) first, then forwards `pm_getPaymasterStubData` / `pm_getPaymasterData` ' +
      'to it. Not with `PAYMASTER_ADDRESS_<chainId>` for the same chain.',
  },
  'PAYMASTER_ADDRESS_<chainId>': {
    prefix: 'PAYMASTER_ADDRESS_',
    example: 'PAYMASTER_ADDRESS_8453',
    parse: paymasterAddress,
    defaultDoc: 'unset; the local chain: its DialPaymaster, signed for by the dev signer',
    doc:
      "Dial's own verifying paymaster (`DialPaymaster.sol`, deployed and funded at the EntryPoint by you) on " +
      'that chain: the server signs for each operation its policy allows with `PAYMASTER_SIGNER_KEY`.',
  },
  PAYMASTER_SIGNER_KEY: {
    parse: paymasterSignerKey,
    defaultDoc: 'unset',
    doc:
      'The private key (0x and 64 hex digits) whose signature DialPaymaster honours (its `signer`). Never ' +
      "logged. Keep it apart from the paymaster's owner key: if it leaks, the owner calls `setSigner` with a " +
      'new one, and what a thief can spend is bounded by the deposit, not by this server.',
  },
  SPONSOR_CALLS: {
    parse: oneOf(['transfers', 'dial-accounts', 'off'] as const),
    defaultDoc: '`transfers` with the local chain on, else `off`',
    doc:
      "Which sends have their network fee paid: `transfers`, transfers of the offered assets (the network's " +
      'native currency, USDC) to anyone; `dial-accounts`, only to the wallets of other Dial accounts; ' +
      '`off`, none.',
  },
  SPONSOR_ACCOUNT_DAILY_LIMIT: {
    default: '10',
    parse: integer(0, 1_000_000),
    doc: 'Sponsored operations one account may have per UTC day, all chains together; then it pays its own fee.',
  },
  'SPONSOR_DAILY_CAP_<chainId>': {
    prefix: 'SPONSOR_DAILY_CAP_',
    example: 'SPONSOR_DAILY_CAP_8453',
    parse: dailyCapWei,
    defaultDoc: '`1` on the local chain; required with a paymaster',
    doc:
      'The most of its native currency (a decimal such as `0.05`) the operator pays for fees on that chain ' +
      "per UTC day, counted at each operation's maximum cost (all its gas limits × its max fee). After it, " +
      'sends fall back to self-paid (`sponsor_daily_cap`). Holds across servers: it is counted in the ' +
      'database.',
  },
  OPERATOR_NAME: {
    parse: text,
    defaultDoc: "`PUBLIC_URL`'s host name",
    doc: 'Who pays the fees, as the review shows it: "Network fee: free, paid by <OPERATOR_NAME>".',
  },
  OPERATOR_TOKEN: {
    parse: operatorToken,
    defaultDoc: 'unset (the operator report answers 404)',
    doc:
      'The bearer token of the operator report, `GET /api/admin/sponsorships` (`Authorization: Bearer …`), ' +
      'at least 32 characters. Never logged.',
  },
  LOCAL_BUNDLER_PORT: {
    default: '4337',
    parse: integer(1, 65_535),
    doc: "The port of the local chain's bundler (Pimlico's Alto, started with the local chain), on loopback.",
  },
  CDP_API_KEY_ID: {
    parse: text,
    defaultDoc: 'unset (the on-ramp is the sandbox in development, off in production)',
    doc:
      'A CDP Secret API key: with both set, "Buy" and "Deposit from exchange" go through Coinbase ' +
      'Onramp. The secret is the EC P-256 private key in PEM (one line with `\\n` is fine; signs ES256) ' +
      "or the Ed25519 key in base64 (EdDSA). Never logged. Coinbase checks the buyer's IP address " +
      'against the one the server sends (`clientIp`), so behind a load balancer set `TRUST_PROXY`.',
  },
  CDP_API_KEY_SECRET: { parse: cdpSecret, docWith: 'CDP_API_KEY_ID' },
  CDP_PROJECT_ID: {
    parse: cdpProjectId,
    doc: "Your CDP project id, sent as the buy link's `appId`. Required with a CDP key.",
  },
  APP_ID: {
    parse: appId,
    defaultDoc: "`PUBLIC_URL`'s host name",
    doc:
      "This deployment's id; the buy link names the wallet provider as `endPartnerName=dial:<APP_ID>`, and " +
      'it names the Redis wake channel (see `REDIS_URL`). Letters, digits, `.`, `-`, `_`.',
  },
  ONRAMP_API_URL: {
    default: DEFAULT_ONRAMP_API_URL,
    parse: httpUrlText,
    doc:
      'The Onramp API base; session tokens come from `<ONRAMP_API_URL>/v1/token` (tests point it at a ' +
      'stand-in). https only in production.',
  },
  ONRAMP_PAY_URL: {
    default: COINBASE_ONRAMP_PAY_URL,
    parse: httpUrlText,
    doc:
      "Coinbase's hosted buy page. The sandbox always uses its own page on this server " +
      '(`/onramp/sandbox/buy`). https only in production.',
  },
  ONRAMP_OFFERS: {
    parse: onrampOffers,
    defaultDoc: 'unset (the built-in table)',
    doc:
      'More `ASSET:network` pairs to offer, comma-separated (e.g. `USDC:optimism`); the asset is one ' +
      'of USDC, ETH, BTC, SOL, POL. The built-in table: ETH on Ethereum, Base and Arbitrum One, POL on ' +
      'Polygon, USDC on those four, BTC on `bitcoin`, SOL on `solana`.',
  },
  ONRAMP_BTC_ADDRESS: {
    parse: bitcoinAddress,
    defaultDoc: 'unset (BTC and SOL are not offered)',
    doc:
      "A Bitcoin / Solana address that receives BTC / SOL bought through Coinbase. Dial's wallet holds " +
      'EVM assets only, so **BTC and SOL are offered only when you configure such an address** (and ' +
      'never in the sandbox).',
  },
  ONRAMP_SOL_ADDRESS: { parse: solanaAddress, docWith: 'ONRAMP_BTC_ADDRESS' },
  PRICE_SOURCE: {
    parse: oneOf(['sandbox', 'coinbase', 'off'] as const),
    defaultDoc: '`sandbox` outside production, `coinbase` in production',
    doc:
      'Where the wallet home\'s total value ("≈ $1,234.56 total on Base", in US dollars) gets its prices of ' +
      "ETH, POL and USDC: `coinbase` reads Coinbase's public spot prices at `PRICE_URL` (no key; nothing " +
      'about the user is sent); `sandbox` gives fixed test prices (ETH $3,000, POL $0.50, USDC $1) and is ' +
      "the only source that prices the local chain's test funds; refused in production; `off` shows no " +
      'total. Each price is read at most once a minute and kept in the database for every server; when the ' +
      'source fails, no total is shown (a price older than 5 minutes is never used). Test networks (Base ' +
      'Sepolia) are never counted.',
  },
  PRICE_URL: {
    default: DEFAULT_PRICE_URL,
    parse: httpUrlText,
    doc:
      "Coinbase's API base for `PRICE_SOURCE=coinbase`: spot prices come from " +
      '`<PRICE_URL>/v2/prices/ETH-USD/spot` (tests point it at a stand-in). https only in production.',
  },
  SESSION_IDLE_HOURS: {
    default: '24',
    parse: positiveNumber,
    doc: 'A session ends after this long without use.',
  },
  SESSION_MAX_DAYS: {
    default: '7',
    parse: positiveNumber,
    doc: 'A session ends this long after sign-in, used or not.',
  },
  OTP_STARTS_PER_IP: {
    default: String(RATE_LIMITS.otpStartsPerIp.max),
    parse: integer(1, 1_000_000),
    doc:
      'Sign-in codes one IP address may ask for in an hour. Raise it when many people share one ' +
      'address (an office behind NAT).',
  },
  OTP_VERIFIES_PER_IP: {
    default: String(RATE_LIMITS.otpVerifiesPerIp.max),
    parse: integer(1, 1_000_000),
    doc: 'Code checks from one IP address in 10 minutes. The per-number limits (below) do not change.',
  },
  IPV6_PREFIX_LENGTH: {
    default: '64',
    parse: integer(32, 128),
    doc:
      'Per-IP rate limits (the two above, and those of wallet sign-in, look-ups and the on-ramp) count an ' +
      'IPv6 client by this many leading bits of its address, an IPv4 client (an IPv4-mapped IPv6 address ' +
      'too) by its address. One IPv6 home, phone or server is given a whole /64 and picks new addresses in ' +
      'it at will, so counting each address apart would give it billions of budgets. 32 to 128; `128` ' +
      'counts each address apart.',
  },
  TRUST_PROXY: {
    default: 'false',
    parse: parseTrustProxy,
    defaultDoc: "`false` (the socket's address is the client's)",
    doc:
      "Behind reverse proxies or a load balancer, which proxies' `X-Forwarded-For` to believe, so " +
      "per-IP rate limits and the on-ramp's `clientIp` see the client's address: their addresses or " +
      'CIDR ranges, comma-separated (`TRUST_PROXY=10.0.0.0/8`, or `loopback` for a proxy on the same ' +
      'machine), or the number of proxies in front of Dial (`TRUST_PROXY=1`; only when nothing can ' +
      'reach Dial except through them, since the nearest peer is not checked). Each proxy must append ' +
      'the address it saw (nginx: `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`). ' +
      '`true` is refused: it believes the left-most entry, which the client writes; so are ranges ' +
      'wider than a /8 (`0.0.0.0/0`, `::/0`).',
  },
  REQUEST_TIMEOUT_SECONDS: {
    default: String(DEFAULT_HTTP_LIMITS.requestTimeoutSeconds),
    parse: timeoutSeconds,
    doc:
      "A request's headers and body must arrive within this, or it gets `408 request_timeout` and the " +
      'connection is closed (a client sending its body a byte at a time cannot hold a connection). The ' +
      'three timeouts take 0.001 to 2147483 seconds.',
  },
  HEADERS_TIMEOUT_SECONDS: {
    parse: timeoutSeconds,
    defaultDoc: `\`${DEFAULT_HTTP_LIMITS.headersTimeoutSeconds}\` (at most \`REQUEST_TIMEOUT_SECONDS\`)`,
    doc: "A request's headers must arrive within this, or `408 request_timeout`.",
  },
  IDLE_TIMEOUT_SECONDS: {
    default: String(DEFAULT_HTTP_LIMITS.idleTimeoutSeconds),
    parse: timeoutSeconds,
    doc:
      'A connection with nothing on it this long (kept alive between requests, or silent) is closed. ' +
      "Keep it above your load balancer's idle timeout (60 s on many), so it never reuses a connection " +
      'Dial has just closed.',
  },
  MAX_CONNECTIONS: {
    default: String(DEFAULT_HTTP_LIMITS.maxConnections),
    parse: integer(1, 1_000_000),
    doc:
      'Connections open at once; further ones are closed as soon as they are accepted (logged as a ' +
      'warning at most once a minute), so a flood of slow clients cannot use up the file descriptors ' +
      "the database needs. Keep it below the process's open-file limit (`ulimit -n`); limit " +
      'connections per client at your proxy too.',
  },
  LOG_LEVEL: {
    default: 'info',
    parse: oneOf(LOG_LEVELS),
    doc:
      '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Secrets (codes, cookies, shares) ' +
      'are never logged. At `info`, one line a request (`request completed`: method, URL, client address, ' +
      'status, time), written to stdout in the background; for `GET /api/health`, `/api/ready`, ' +
      '`/api/config` and `/api/me`, which load balancers and every page load call, only when refused or ' +
      'failed (status 400 or more: a 401, a 429…). Every change (POST, PUT, PATCH, DELETE), every other ' +
      'read, every refusal (401, 403 `forbidden_origin`, 429) and every error is logged.',
  },
  WEB_DIST_DIR: {
    default: DEFAULT_WEB_DIST_DIR,
    parse: absolutePath,
    defaultDoc: '`apps/web/dist`',
    doc: 'The built web app the server serves.',
  },
} as const satisfies Readonly<Record<string, ConfigEntry>>;

/** A variable only the tests read, for the README. */
export interface TestVariable {
  readonly defaultDoc: string;
  readonly doc: string;
}

/** The variables the tests read (never the server), documented after the server's. */
export const TEST_VARIABLES: Readonly<Record<string, TestVariable>> = {
  TEST_DATABASE_URL: {
    defaultDoc: 'unset (PGlite)',
    doc: 'Tests only: the PostgreSQL the storage tests run against.',
  },
  TEST_REDIS_URL: {
    defaultDoc: 'unset (the Redis cases are skipped)',
    doc:
      'Tests only: the Redis the Redis rate-limit cases run against, e.g. `redis://127.0.0.1:6379/15`. ' +
      'They use keys under `dial-test:<random>:` and delete only those.',
  },
  CHROMIUM_PATH: {
    defaultDoc: '`/usr/bin/chromium`',
    doc: 'Browser tests only: the Chromium to drive.',
  },
};
