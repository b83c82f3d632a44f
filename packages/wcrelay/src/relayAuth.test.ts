import { generateKeyPair, signJWT } from '@walletconnect/relay-auth';
import { describe, expect, it } from 'vitest';
import { didKeyOf, RelayAuthError, readDidKey, verifyRelayAuth } from './relayAuth.js';
import { createClientKey, makeAuth } from './testing/rawRelayClient.js';

const RELAY = 'ws://127.0.0.1:1234';

describe('verifyRelayAuth', () => {
  it("accepts the JWT WalletConnect's own relay-auth signs, and reads its claims", async () => {
    const keyPair = generateKeyPair();
    const jwt = await signJWT('session-id', RELAY, 86_400, keyPair);
    const claims = verifyRelayAuth(jwt, RELAY, Date.now());
    expect(claims).toEqual(
      expect.objectContaining({ iss: didKeyOf(keyPair.publicKey), sub: 'session-id', aud: RELAY }),
    );
    expect(claims.exp - claims.iat).toBe(86_400);
  });

  it('refuses a JWT whose payload was changed after signing', () => {
    const jwt = makeAuth(createClientKey(), RELAY);
    const [header, payload, signature] = jwt.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const changed = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 86_400 })).toString(
      'base64url',
    );
    expect(() => verifyRelayAuth(`${header}.${changed}.${signature}`, RELAY, Date.now())).toThrow(
      new RelayAuthError('auth signature does not verify with the issuer key'),
    );
  });

  it('refuses a JWT with another algorithm in its header', () => {
    const jwt = makeAuth(createClientKey(), RELAY);
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(() =>
      verifyRelayAuth(`${header}.${jwt.split('.').slice(1).join('.')}`, RELAY, Date.now()),
    ).toThrow(RelayAuthError);
  });

  it('refuses a JWT the moment it expires', () => {
    const jwt = makeAuth(createClientKey(), RELAY, { iat: 1_000, exp: 2_000 });
    expect(verifyRelayAuth(jwt, RELAY, 1_999_999).exp).toBe(2_000);
    expect(() => verifyRelayAuth(jwt, RELAY, 2_000_000)).toThrow(new RelayAuthError('auth has expired'));
  });
});

describe('didKeyOf and readDidKey', () => {
  it("write and read an Ed25519 did:key as WalletConnect's relay-auth does", () => {
    const { publicKey } = generateKeyPair();
    const did = didKeyOf(publicKey);
    expect(did).toMatch(/^did:key:z6Mk/);
    expect(readDidKey(did)).toEqual(Uint8Array.from(publicKey));
  });

  it('refuses a did:key of another key type', () => {
    // A secp256k1 key's multicodec prefix (0xe7 0x01) instead of Ed25519's (0xed 0x01).
    expect(() => readDidKey('did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme')).toThrow(
      new RelayAuthError('auth issuer is not an Ed25519 public key'),
    );
  });
});
