import { createPrivateKey } from 'node:crypto';
import { resolve } from 'node:path';
import { type OnrampOffer, parseOnrampOffers } from '@dial/core';
import { ConfigError } from './configError.js';

/**
 * Reads one variable's text (trimmed, never empty) into its value, or throws a {@link ConfigError} whose
 * message names the variable (`name`) and says what to write.
 */
export type Parser<T> = (text: string, name: string) => T;

/** The text as it is. */
export const text: Parser<string> = (value) => value;

/** One of `allowed`. */
export function oneOf<T extends string>(allowed: readonly T[]): Parser<T> {
  return (value, name) => {
    if (!(allowed as readonly string[]).includes(value)) {
      throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}.`);
    }
    return value as T;
  };
}

/** `true` or `false`. */
export const boolean: Parser<boolean> = (value, name) => oneOf(['true', 'false'])(value, name) === 'true';

/** A whole number from `min` to `max`. */
export function integer(min: number, max: number): Parser<number> {
  return (value, name) => {
    const number = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < min || number > max) {
      throw new ConfigError(
        `${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}.`,
      );
    }
    return number;
  };
}

/** A number above 0, in decimal (`1.5`). */
export const positiveNumber: Parser<number> = (value, name) => {
  const number = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(number > 0)) {
    throw new ConfigError(`${name} must be a positive number, not ${JSON.stringify(value)}.`);
  }
  return number;
};

/**
 * A timeout in seconds that Node's timers keep: at least a millisecond (less rounds to 0, which Node reads
 * as "no timeout") and below 2^31 ms (more overflows to 1 ms, closing every connection at once).
 */
export const timeoutSeconds: Parser<number> = (value, name) => {
  const seconds = positiveNumber(value, name);
  if (seconds < 0.001 || seconds * 1000 > 2_147_483_647) {
    throw new ConfigError(`${name} must be from 0.001 to 2147483 seconds, not ${JSON.stringify(value)}.`);
  }
  return seconds;
};

/** A path, made absolute against the working directory. */
export const absolutePath: Parser<string> = (value) => resolve(value);

/** Parses an http:// or https:// URL. */
export const httpUrl: Parser<URL> = (value, name) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL, not ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http:// or https:// URL, not ${JSON.stringify(value)}.`);
  }
  return url;
};

/** An http(s) origin without a path (`https://wallet.example.com`), as `URL.origin` writes it. */
export const origin: Parser<string> = (value, name) => {
  const url = httpUrl(value, name);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new ConfigError(
      `${name} must be an origin only (like https://wallet.example.com), without a path: ${JSON.stringify(value)}.`,
    );
  }
  return url.origin;
};

/** An http(s) URL, path allowed, kept as written. */
export const httpUrlText: Parser<string> = (value, name) => {
  httpUrl(value, name);
  return value;
};

/** A JSON-RPC URL the browser will fetch: http(s), without credentials (fetch refuses those). */
export const rpcUrl: Parser<string> = (value, name) => {
  const url = httpUrl(value, name);
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(
      `${name} must not hold a user name or password (user:password@): browsers refuse to fetch such URLs. ` +
        'Put the API key in the path or query, as RPC providers do.',
    );
  }
  return value;
};

/** A ws:// or wss:// URL, kept as written (production requires wss://: a cross-variable rule). */
export const webSocketUrl: Parser<string> = (value, name) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be a ws:// or wss:// URL, not ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    throw new ConfigError(`${name} must be a ws:// or wss:// URL, not ${JSON.stringify(value)}.`);
  }
  return value;
};

/** A WalletConnect project id: 32 hex digits. */
export const walletConnectProjectId: Parser<string> = (value, name) => {
  if (!/^[0-9a-f]{32}$/i.test(value)) {
    throw new ConfigError(
      `${name} must be a WalletConnect project id (32 hex digits), not ${JSON.stringify(value)}.`,
    );
  }
  return value.toLowerCase();
};

/** `DATABASE_URL`: a PostgreSQL URL. */
export const postgresUrl: Parser<string> = (value) => {
  if (!/^postgres(ql)?:\/\//.test(value)) {
    throw new ConfigError(
      'DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:5432/database); leave it unset for SQLite.',
    );
  }
  return value;
};

/**
 * `REDIS_URL`: redis:// or rediss://, a host, and at most a database number as the path. The message never
 * repeats the value, which may hold a password.
 */
export const redisUrl: Parser<string> = (value) => {
  const usage =
    'REDIS_URL must be a Redis URL: redis://[user:password@]host[:port][/database], or rediss://… for TLS ' +
    '(for example redis://127.0.0.1:6379/0); leave it unset to keep rate limits in the database.';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(usage);
  }
  if (!['redis:', 'rediss:'].includes(url.protocol) || url.hostname === '') throw new ConfigError(usage);
  if (!/^(\/(\d+)?)?$/.test(url.pathname) || url.search !== '' || url.hash !== '')
    throw new ConfigError(usage);
  return value;
};

/** `SMTP_URL`: smtp:// or smtps://. */
export const smtpUrl: Parser<string> = (value) => {
  if (!/^smtps?:\/\//.test(value)) throw new ConfigError('SMTP_URL must start with smtp:// or smtps://.');
  return value;
};

/**
 * `CDP_API_KEY_SECRET`: an EC P-256 private key in PEM, or 64 bytes of Ed25519 key in base64. A PEM in one
 * line of an env file has its line breaks written as `\n`; they are put back.
 */
export const cdpSecret: Parser<string> = (value) => {
  const secret = value.replaceAll('\\n', '\n');
  if (secret.includes('-----BEGIN')) {
    try {
      const key = createPrivateKey(secret);
      if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1')
        return secret;
    } catch {
      // Reported below.
    }
  } else if (/^[A-Za-z0-9+/]+={0,2}$/.test(secret) && Buffer.from(secret, 'base64').length === 64) {
    return secret;
  }
  throw new ConfigError(
    'CDP_API_KEY_SECRET must be the CDP key secret: an EC P-256 private key in PEM (-----BEGIN EC PRIVATE KEY-----…), or an Ed25519 key in base64.',
  );
};

/** `CDP_PROJECT_ID`: letters, digits and dashes. */
export const cdpProjectId: Parser<string> = (value) => {
  if (!/^[A-Za-z0-9-]{1,100}$/.test(value)) {
    throw new ConfigError('CDP_PROJECT_ID must be the CDP project id (letters, digits and dashes).');
  }
  return value;
};

/** `APP_ID`: 1 to 64 letters, digits, dots, dashes or underscores. */
export const appId: Parser<string> = (value) => {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(value)) {
    throw new ConfigError('APP_ID must be 1 to 64 letters, digits, dots, dashes or underscores.');
  }
  return value;
};

/** `ONRAMP_OFFERS`: `ASSET:network` pairs separated by commas. */
export const onrampOffers: Parser<OnrampOffer[]> = (value) => {
  try {
    return parseOnrampOffers(value);
  } catch {
    throw new ConfigError(
      'ONRAMP_OFFERS must be ASSET:network pairs separated by commas (e.g. USDC:optimism), with an asset of USDC, ETH, BTC, SOL or POL.',
    );
  }
};

/** `ONRAMP_BTC_ADDRESS`: a Bitcoin address (bech32 `bc1…`, or base58 `1…` / `3…`). */
export const bitcoinAddress: Parser<string> = (value) => {
  if (!/^(bc1[02-9ac-hj-np-z]{11,87}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/.test(value)) {
    throw new ConfigError('ONRAMP_BTC_ADDRESS must be a Bitcoin address (bc1…, 1… or 3…).');
  }
  return value;
};

/** `ONRAMP_SOL_ADDRESS`: a Solana address (base58). */
export const solanaAddress: Parser<string> = (value) => {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) {
    throw new ConfigError('ONRAMP_SOL_ADDRESS must be a Solana address (32 to 44 base58 characters).');
  }
  return value;
};
