import { DialError, SECOND_MS } from '@dial/core';
import { type Address, getAddress } from 'viem';
import { createSiweMessage, parseSiweMessage, type SiweMessage } from 'viem/siwe';
import { SIWE_NONCE_TTL_SECONDS } from './siweNonces.js';

/** How far ahead of the server's clock a message's `Issued At` may be: the signer's clock may run fast. */
export const ISSUED_AT_SKEW_SECONDS = 300;

/** What a message must name to be accepted here. */
export interface SiweRules {
  /**
   * The origins a message may be for (`config.allowedOrigins`: `PUBLIC_URL`'s, and in development its
   * loopback aliases). The message's `domain` is one's host; its `URI` is on that same origin.
   */
  origins: readonly string[];
  /** The chain ids a message may name. */
  chainIds: readonly number[];
}

/** A SIWE message that passed {@link readSiweMessage}: every required field is there and well formed. */
export interface SiweFields {
  domain: string;
  /** EIP-55 checksummed, as the message must write it. */
  address: Address;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date | undefined;
  notBefore: Date | undefined;
  scheme: string | undefined;
}

/**
 * Reads an EIP-4361 message with viem's `parseSiweMessage`. The grammar is held strictly: the text must be
 * exactly what viem's `createSiweMessage` writes for the fields read from it, so nothing is ignored (no line
 * added, repeated or reordered, no address in other than its EIP-55 case, version 1, an alphanumeric nonce of
 * 8 characters or more, an RFC 3986 URI, times in UTC as JavaScript's `toISOString` writes them). A message
 * a wallet signs is built by the web app with `createSiweMessage`, so it always passes.
 *
 * @throws {DialError} `siwe_message_invalid`.
 */
export function readSiweMessage(text: string): SiweFields {
  const parsed = parseSiweMessage(text);
  const { domain, address, uri, version, chainId, nonce, issuedAt } = parsed;
  if (
    domain === undefined ||
    address === undefined ||
    uri === undefined ||
    version === undefined ||
    chainId === undefined ||
    nonce === undefined ||
    issuedAt === undefined ||
    [issuedAt, parsed.expirationTime, parsed.notBefore].some(
      (time) => time !== undefined && Number.isNaN(time.getTime()),
    )
  ) {
    throw new DialError('siwe_message_invalid', { details: 'a required field is missing or malformed' });
  }
  let canonical: string;
  try {
    canonical = createSiweMessage(parsed as SiweMessage);
  } catch (error) {
    throw new DialError('siwe_message_invalid', { details: 'a field is not valid', cause: error });
  }
  if (canonical !== text) {
    throw new DialError('siwe_message_invalid', { details: 'not the canonical text of its fields' });
  }
  return {
    domain,
    address: getAddress(address),
    uri,
    chainId,
    nonce,
    issuedAt,
    expirationTime: parsed.expirationTime,
    notBefore: parsed.notBefore,
    scheme: parsed.scheme,
  };
}

/**
 * Checks a message's fields against this deployment and the clock, in this order:
 * - `domain` is the host of one of `rules.origins`, and the scheme, when the message has one, is that
 *   origin's;
 * - `URI` is on that same origin (scheme, host and port): any path, no user name or password;
 * - `Chain ID` is one of `rules.chainIds`;
 * - `Issued At` is at most {@link ISSUED_AT_SKEW_SECONDS} ahead of `now`, and no older than a nonce lives
 *   (10 minutes) plus the same skew;
 * - `Expiration Time`, when present, is after `now`; `Not Before`, when present, is not after `now`.
 *
 * @throws {DialError} `siwe_domain_mismatch`, `siwe_uri_mismatch`, `siwe_chain_unsupported`,
 * `siwe_issued_at_invalid`, `siwe_expired`, `siwe_not_yet_valid`.
 */
export function checkSiweFields(fields: SiweFields, rules: SiweRules, now: Date): void {
  const candidates = rules.origins
    .map((origin) => new URL(origin))
    .filter(
      (origin) =>
        origin.host === fields.domain &&
        (fields.scheme === undefined || origin.protocol === `${fields.scheme}:`),
    );
  if (candidates.length === 0) throw new DialError('siwe_domain_mismatch', { details: fields.domain });

  const uri = parseUrl(fields.uri);
  if (
    uri === null ||
    uri.username !== '' ||
    uri.password !== '' ||
    !candidates.some((origin) => origin.origin === uri.origin)
  ) {
    throw new DialError('siwe_uri_mismatch');
  }

  if (!rules.chainIds.includes(fields.chainId)) {
    throw new DialError('siwe_chain_unsupported', { details: `chain ${fields.chainId}` });
  }

  const at = now.getTime();
  const issuedAt = fields.issuedAt.getTime();
  const skew = ISSUED_AT_SKEW_SECONDS * SECOND_MS;
  if (issuedAt > at + skew || issuedAt < at - SIWE_NONCE_TTL_SECONDS * SECOND_MS - skew) {
    throw new DialError('siwe_issued_at_invalid');
  }
  if (fields.expirationTime !== undefined && fields.expirationTime.getTime() <= at) {
    throw new DialError('siwe_expired');
  }
  if (fields.notBefore !== undefined && fields.notBefore.getTime() > at) {
    throw new DialError('siwe_not_yet_valid');
  }
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
