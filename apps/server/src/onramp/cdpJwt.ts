import { createPrivateKey, type KeyObject, randomBytes, sign } from 'node:crypto';

/** What {@link signCdpJwt} needs. */
export interface CdpJwtOptions {
  /** `CDP_API_KEY_ID`, the JWT's `kid` and `sub`. */
  keyId: string;
  /** `CDP_API_KEY_SECRET`: an EC P-256 private key in PEM (ES256), or 64 bytes of Ed25519 key in base64 (EdDSA). */
  keySecret: string;
  /** `POST`. */
  method: string;
  /** The API's host, with its port when it has one, e.g. `api.developer.coinbase.com`. */
  host: string;
  /** e.g. `/onramp/v1/token`. */
  path: string;
  /** Seconds since the epoch; now by default. */
  now?: number;
}

/** How long a CDP JWT is valid: 120 s, as Coinbase's SDKs do. */
export const CDP_JWT_LIFETIME_SECONDS = 120;

/** DER prefix of a PKCS #8 Ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * Signs the JWT that authenticates one request to Coinbase's CDP APIs with a CDP Secret API key, with
 * node:crypto only: header `{alg, kid, typ, nonce}`, claims `{iss: "cdp", sub: keyId, aud, iat, nbf,
 * exp (+120 s), uri: "METHOD host/path", uris: [uri]}`. ES256 for an EC key (the signature in JOSE's r‖s form), EdDSA for Ed25519.
 */
export function signCdpJwt(options: CdpJwtOptions): string {
  const { key, alg } = readCdpKey(options.keySecret);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const header = { alg, kid: options.keyId, typ: 'JWT', nonce: randomBytes(16).toString('hex') };
  const uri = `${options.method} ${options.host}${options.path}`;
  // `uri` is what Coinbase's Onramp examples sign; today's CDP SDKs sign `uris`, `aud` and `iat` as well
  // (coinbase/cdp-sdk, typescript/src/auth/utils/jwt.ts). Both are sent, so either check passes.
  const claims = {
    iss: 'cdp',
    sub: options.keyId,
    aud: ['cdp_service'],
    iat: now,
    nbf: now,
    exp: now + CDP_JWT_LIFETIME_SECONDS,
    uri,
    uris: [uri],
  };
  const signingInput = `${base64url(header)}.${base64url(claims)}`;
  const signature =
    alg === 'ES256'
      ? sign('sha256', Buffer.from(signingInput), { key, dsaEncoding: 'ieee-p1363' })
      : sign(null, Buffer.from(signingInput), key);
  return `${signingInput}.${signature.toString('base64url')}`;
}

/** Reads a CDP key secret: PEM means EC (ES256), anything else base64 Ed25519 (seed, then public key). */
export function readCdpKey(secret: string): { key: KeyObject; alg: 'ES256' | 'EdDSA' } {
  if (secret.includes('-----BEGIN')) return { key: createPrivateKey(secret), alg: 'ES256' };
  const bytes = Buffer.from(secret, 'base64');
  if (bytes.length !== 64) throw new Error('an Ed25519 CDP key secret is 64 bytes in base64');
  const der = Buffer.concat([ED25519_PKCS8_PREFIX, bytes.subarray(0, 32)]);
  return { key: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }), alg: 'EdDSA' };
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
