import { createPublicKey, verify } from 'node:crypto';

/**
 * What a WalletConnect client proves when it opens the relay socket: the `auth` query parameter, a JWT
 * signed with the client's Ed25519 key (EdDSA), its issuer that key as a `did:key`, its audience the relay's
 * URL, valid for a day (`@walletconnect/relay-auth`, `signJWT`).
 */
export interface RelayAuthClaims {
  /** The client's `did:key:z…` (its Ed25519 public key): the same client across reconnections. */
  iss: string;
  /** A random identifier of this client's session. */
  sub: string;
  aud: string;
  /** Issued at, in seconds. */
  iat: number;
  /** Expires at, in seconds. */
  exp: number;
}

/** A reason the relay refuses an `auth` JWT. */
export class RelayAuthError extends Error {
  override readonly name = 'RelayAuthError';
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** The multicodec prefix of an Ed25519 public key (0xed, as a varint: 0xed 0x01). */
const ED25519_MULTICODEC = [0xed, 0x01] as const;
/** Clocks differ a little between a client and the relay. */
const CLOCK_SKEW_SECONDS = 60;

/**
 * Checks a relay `auth` JWT: three base64url parts, header `{"alg":"EdDSA","typ":"JWT"}`, an issuer that is
 * an Ed25519 `did:key`, a valid signature by that key over `header.payload`, the audience `relayUrl`, not
 * expired at `nowMs` and not issued in the future.
 *
 * @returns The JWT's claims.
 * @throws {RelayAuthError} naming the first rule the JWT breaks.
 */
export function verifyRelayAuth(jwt: string, relayUrl: string, nowMs: number): RelayAuthClaims {
  const parts = jwt.split('.');
  if (parts.length !== 3) throw new RelayAuthError('auth is not a JWT (three dot-separated parts)');
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJsonPart(headerPart, 'header');
  if (header.alg !== 'EdDSA' || header.typ !== 'JWT') {
    throw new RelayAuthError('auth header is not {"alg":"EdDSA","typ":"JWT"}');
  }
  const claims = decodeJsonPart(payloadPart, 'payload');
  const { iss, sub, aud, iat, exp } = claims;
  if (typeof iss !== 'string' || typeof sub !== 'string' || typeof aud !== 'string') {
    throw new RelayAuthError('auth claims iss, sub and aud must be strings');
  }
  if (!Number.isInteger(iat) || !Number.isInteger(exp)) {
    throw new RelayAuthError('auth claims iat and exp must be whole seconds');
  }
  const publicKey = readDidKey(iss);
  const signature = Buffer.from(signaturePart, 'base64url');
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') },
    format: 'jwk',
  });
  if (!verify(null, Buffer.from(`${headerPart}.${payloadPart}`, 'utf8'), key, signature)) {
    throw new RelayAuthError('auth signature does not verify with the issuer key');
  }
  if (aud !== relayUrl) throw new RelayAuthError(`auth audience ${aud} is not this relay (${relayUrl})`);
  const now = Math.floor(nowMs / 1000);
  if ((exp as number) <= now) throw new RelayAuthError('auth has expired');
  if ((iat as number) > now + CLOCK_SKEW_SECONDS) throw new RelayAuthError('auth is issued in the future');
  return { iss, sub, aud, iat: iat as number, exp: exp as number };
}

/** The 32-byte Ed25519 public key of a `did:key:z…` (base58btc multibase, Ed25519 multicodec). */
export function readDidKey(did: string): Uint8Array {
  const prefix = 'did:key:z';
  if (!did.startsWith(prefix)) throw new RelayAuthError('auth issuer is not a base58btc did:key');
  const bytes = decodeBase58(did.slice(prefix.length));
  if (bytes.length !== 34 || bytes[0] !== ED25519_MULTICODEC[0] || bytes[1] !== ED25519_MULTICODEC[1]) {
    throw new RelayAuthError('auth issuer is not an Ed25519 public key');
  }
  return bytes.slice(2);
}

/** Encodes a 32-byte Ed25519 public key as a `did:key` (the inverse of {@link readDidKey}). */
export function didKeyOf(publicKey: Uint8Array): string {
  return `did:key:z${encodeBase58(Uint8Array.from([...ED25519_MULTICODEC, ...publicKey]))}`;
}

function decodeJsonPart(part: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new RelayAuthError(`auth ${what} is not base64url JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RelayAuthError(`auth ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

function decodeBase58(text: string): Uint8Array {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) throw new RelayAuthError('auth issuer is not base58btc');
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  for (const char of text) {
    if (char !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

function encodeBase58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = BASE58_ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}
