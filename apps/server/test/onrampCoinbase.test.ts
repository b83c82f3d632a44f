import { generateKeyPairSync, type KeyObject, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { COINBASE_ONRAMP_PAY_URL, DEFAULT_ONRAMP_OFFERS, encodeShare, SHARE_LENGTH } from '@dial/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type OnrampConfig } from '../src/config/index.js';
import { useTestDatabase } from './databases.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';
import { registerWallet, testWallet } from './walletProof.js';

const ADDRESS = testWallet(1).address;
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const KEY_ID = 'organizations/org-1/apiKeys/key-1';
const HEX_KEY = 'ab'.repeat(32);

/** The two kinds of CDP Secret API key, with the public half the stand-in verifies with. */
function ecKey(): { secret: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { secret: privateKey.export({ type: 'sec1', format: 'pem' }) as string, publicKey };
}
function ed25519Key(): { secret: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const secret = Buffer.concat([Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url')]);
  return { secret: secret.toString('base64'), publicKey };
}

interface Received {
  ok: boolean;
  problem?: string;
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  body?: unknown;
}

/**
 * A loopback stand-in for Coinbase's token API: checks the JWT's signature (with the key's public half),
 * header and claims, records the body, and answers `{token, channel_id}`, or 401 when the JWT is wrong.
 */
function createStandIn() {
  const received: Received[] = [];
  let publicKey: KeyObject | undefined;
  let answer: { status: number; body: string } | undefined;
  let counter = 0;
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const port = (server.address() as AddressInfo).port;
    const record: Received = { ok: false };
    received.push(record);
    try {
      if (request.method !== 'POST' || request.url !== '/onramp/v1/token') throw new Error('wrong route');
      if (request.headers['content-type'] !== 'application/json') throw new Error('not JSON');
      const jwt = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (jwt === undefined) throw new Error('no bearer token');
      const [headerPart, claimsPart, signaturePart] = jwt.split('.');
      const header = JSON.parse(Buffer.from(headerPart!, 'base64url').toString());
      const claims = JSON.parse(Buffer.from(claimsPart!, 'base64url').toString());
      record.header = header;
      record.claims = claims;
      const data = Buffer.from(`${headerPart}.${claimsPart}`);
      const signature = Buffer.from(signaturePart!, 'base64url');
      const valid =
        header.alg === 'ES256'
          ? verify('sha256', data, { key: publicKey!, dsaEncoding: 'ieee-p1363' }, signature)
          : header.alg === 'EdDSA' && verify(null, data, publicKey!, signature);
      if (!valid) throw new Error('bad signature');
      const now = Math.floor(Date.now() / 1000);
      if (header.kid !== KEY_ID || header.typ !== 'JWT' || !/^[0-9a-f]{32}$/.test(header.nonce)) {
        throw new Error('bad header');
      }
      if (claims.iss !== 'cdp' || claims.sub !== KEY_ID) throw new Error('bad issuer or subject');
      if (claims.nbf > now + 5 || claims.exp <= now || claims.exp - claims.nbf !== 120)
        throw new Error('bad times');
      const uri = `POST 127.0.0.1:${port}/onramp/v1/token`;
      if (claims.uri !== uri || JSON.stringify(claims.uris) !== JSON.stringify([uri])) {
        throw new Error(`bad uri ${claims.uri}`);
      }
      record.body = JSON.parse(text);
      record.ok = true;
    } catch (error) {
      record.problem = (error as Error).message;
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"errorMessage":"unauthorized"}');
      return;
    }
    if (answer !== undefined) {
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
      return;
    }
    counter += 1;
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ token: `cb-session-token-${counter}-secret`, channel_id: '' }));
  });
  return {
    server,
    received,
    useKey(key: KeyObject) {
      publicKey = key;
    },
    answerWith(next: { status: number; body: string } | undefined) {
      answer = next;
    },
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/onramp`,
  };
}

describe('the Coinbase on-ramp provider, against a loopback stand-in', () => {
  const db = useTestDatabase('sqlite');
  const standIn = createStandIn();
  const lines: string[] = [];
  beforeAll(async () => {
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => standIn.server.close(resolve));
  });
  beforeEach(() => {
    standIn.received.length = 0;
    standIn.answerWith(undefined);
    lines.length = 0;
  });

  async function coinbaseApp(secret: string, extra: Partial<OnrampConfig> = {}): Promise<TestApp> {
    return createTestApp(db(), {
      config: {
        logLevel: 'trace',
        onramp: {
          provider: 'coinbase',
          appId: 'wallet-eu',
          coinbase: {
            keyId: KEY_ID,
            keySecret: secret,
            projectId: 'project-42',
            apiUrl: standIn.url(),
            payUrl: COINBASE_ONRAMP_PAY_URL,
          },
          offers: DEFAULT_ONRAMP_OFFERS,
          btcAddress: BTC_ADDRESS,
          solAddress: null,
          ...extra,
        },
      },
      deps: { logStream: { write: (line) => void lines.push(line) } },
    });
  }

  async function signedInWithWallet(t: TestApp): Promise<string> {
    const { token } = await t.signIn('sms', PHONE);
    const authShare = encodeShare(new Uint8Array(SHARE_LENGTH).fill(7));
    expect((await registerWallet(t, token, { authShare })).response.statusCode).toBe(201);
    return token;
  }

  it.each([
    ['an EC P-256 key (ES256)', ecKey],
    ['an Ed25519 key (EdDSA)', ed25519Key],
  ])('gets a session token with %s and builds the Coinbase buy link', async (_label, makeKey) => {
    const key = makeKey();
    standIn.useKey(key.publicKey);
    const t = await coinbaseApp(key.secret);
    const token = await signedInWithWallet(t);
    const config = (await t.get('/api/config')).json().onramp;
    expect(config.provider).toBe('coinbase');
    expect(config.offers).toContainEqual({
      asset: 'USDC',
      network: 'base',
      networkName: 'Base',
      chainId: 8453,
    });
    expect(config.offers).toContainEqual({
      asset: 'BTC',
      network: 'bitcoin',
      networkName: 'Bitcoin',
      chainId: null,
    });
    expect(config.offers.map((offer: { asset: string }) => offer.asset)).not.toContain('SOL');

    const response = await t.post(
      '/api/onramp/session',
      { asset: 'USDC', network: 'base', amount: '.5', experience: 'buy' },
      { token },
    );
    expect(response.statusCode).toBe(200);
    expect(standIn.received).toHaveLength(1);
    const [request] = standIn.received;
    expect(request!.problem).toBeUndefined();
    expect(request!.header!.alg).toBe(makeKey === ecKey ? 'ES256' : 'EdDSA');
    // The exact body: the user's own address on the offered EVM networks, the BTC address, the offered assets.
    expect(request!.body).toEqual({
      addresses: [
        { address: ADDRESS, blockchains: ['base', 'polygon', 'arbitrum'] },
        { address: BTC_ADDRESS, blockchains: ['bitcoin'] },
      ],
      assets: ['USDC', 'ETH', 'POL', 'BTC'],
      clientIp: '127.0.0.1',
    });
    const { url, provider } = response.json();
    expect(provider).toBe('coinbase');
    const link = new URL(url);
    expect(`${link.origin}${link.pathname}`).toBe('https://pay.coinbase.com/buy/select-asset');
    expect(Object.fromEntries(link.searchParams)).toMatchObject({
      appId: 'project-42',
      sessionToken: expect.stringMatching(/^cb-session-token-\d+-secret$/),
      endPartnerName: 'dial:wallet-eu',
      presetCryptoAmount: '0.5',
      defaultPaymentMethod: 'CARD',
    });
    expect(lines.join('\n')).toContain('on-ramp session started');
    expect(lines.join('\n')).not.toContain(link.searchParams.get('sessionToken'));
  });

  it('answers 503 onramp_unavailable when Coinbase refuses or cannot be reached', async () => {
    const key = ecKey();
    standIn.useKey(key.publicKey);
    const t = await coinbaseApp(key.secret);
    const token = await signedInWithWallet(t);
    const body = { asset: 'ETH', network: 'base', amount: '0.1', experience: 'send' };
    standIn.answerWith({ status: 500, body: '{}' });
    const failed = await t.post('/api/onramp/session', body, { token });
    expect(failed.statusCode).toBe(503);
    expect(failed.json().error.code).toBe('onramp_unavailable');
    standIn.answerWith({ status: 200, body: '{"channel_id":""}' });
    expect((await t.post('/api/onramp/session', body, { token })).json().error.code).toBe(
      'onramp_unavailable',
    );
    // A key the stand-in does not know: its signature check fails, and so does the session.
    standIn.answerWith(undefined);
    standIn.useKey(ecKey().publicKey);
    const wrongKey = await t.post('/api/onramp/session', body, { token });
    expect(wrongKey.statusCode).toBe(503);
    expect(standIn.received.at(-1)?.problem).toBe('bad signature');
  });
});

describe('loadConfig: the on-ramp', () => {
  const base = { SHARE_ENCRYPTION_KEY: HEX_KEY, LOCAL_CHAIN: 'on' };

  it('is the sandbox in development without CDP keys, with APP_ID defaulting to the host name', () => {
    const onramp = loadConfig(base).onramp;
    expect(onramp).toMatchObject({
      provider: 'sandbox',
      appId: 'localhost',
      coinbase: null,
      btcAddress: null,
    });
    expect(onramp?.offers).toEqual(DEFAULT_ONRAMP_OFFERS);
  });

  it('is off in production without CDP keys, and without the local chain', () => {
    expect(loadConfig({ SHARE_ENCRYPTION_KEY: HEX_KEY, NODE_ENV: 'production' }).onramp).toBeNull();
    expect(loadConfig({ ...base, LOCAL_CHAIN: 'off' }).onramp).toBeNull();
  });

  it('is Coinbase with a CDP key, in production too', () => {
    const { secret } = ed25519Key();
    const onramp = loadConfig({
      SHARE_ENCRYPTION_KEY: HEX_KEY,
      NODE_ENV: 'production',
      APP_ID: 'wallet-eu',
      CDP_API_KEY_ID: KEY_ID,
      CDP_API_KEY_SECRET: secret,
      CDP_PROJECT_ID: 'project-42',
      ONRAMP_OFFERS: 'USDC:optimism',
      ONRAMP_BTC_ADDRESS: BTC_ADDRESS,
    }).onramp;
    expect(onramp).toMatchObject({
      provider: 'coinbase',
      appId: 'wallet-eu',
      coinbase: {
        keyId: KEY_ID,
        projectId: 'project-42',
        apiUrl: 'https://api.developer.coinbase.com/onramp',
        payUrl: 'https://pay.coinbase.com/buy/select-asset',
      },
      btcAddress: BTC_ADDRESS,
    });
    expect(onramp?.offers.at(-1)).toEqual({ asset: 'USDC', network: 'optimism' });
  });

  it('refuses plain-http on-ramp URLs in production, where they would carry the JWT and session tokens', () => {
    const production = {
      SHARE_ENCRYPTION_KEY: HEX_KEY,
      NODE_ENV: 'production',
      CDP_API_KEY_ID: KEY_ID,
      CDP_API_KEY_SECRET: ed25519Key().secret,
      CDP_PROJECT_ID: 'p',
    };
    expect(() => loadConfig({ ...production, ONRAMP_API_URL: 'http://onramp.example.com' })).toThrow(
      /ONRAMP_API_URL must be an https:\/\/ URL in production/,
    );
    expect(() => loadConfig({ ...production, ONRAMP_PAY_URL: 'http://pay.example.com/buy' })).toThrow(
      /ONRAMP_PAY_URL must be an https:\/\/ URL in production/,
    );
    expect(
      loadConfig({ ...production, ONRAMP_API_URL: 'https://onramp.example.com' }).onramp?.coinbase?.apiUrl,
    ).toBe('https://onramp.example.com');
  });

  it('reads a PEM key written on one line with \\n', () => {
    const { secret } = ecKey();
    const onramp = loadConfig({
      ...base,
      CDP_API_KEY_ID: KEY_ID,
      CDP_API_KEY_SECRET: secret.trim().replaceAll('\n', '\\n'),
      CDP_PROJECT_ID: 'p',
      ONRAMP_API_URL: 'http://127.0.0.1:9999/onramp/',
    }).onramp;
    expect(onramp?.coinbase?.keySecret).toBe(secret.trim());
    expect(onramp?.coinbase?.apiUrl).toBe('http://127.0.0.1:9999/onramp');
  });

  it.each([
    [{ CDP_API_KEY_ID: KEY_ID }, /CDP_API_KEY_ID and CDP_API_KEY_SECRET/],
    [
      { CDP_API_KEY_ID: KEY_ID, CDP_API_KEY_SECRET: 'not-a-key', CDP_PROJECT_ID: 'p' },
      /CDP_API_KEY_SECRET must be/,
    ],
    [{ CDP_API_KEY_ID: KEY_ID, CDP_API_KEY_SECRET: ed25519Key().secret }, /CDP_PROJECT_ID is required/],
    [{ ONRAMP_API_URL: 'ftp://x' }, /ONRAMP_API_URL/],
    [{ ONRAMP_PAY_URL: 'nope' }, /ONRAMP_PAY_URL/],
    [{ APP_ID: 'has space' }, /APP_ID/],
    [{ ONRAMP_OFFERS: 'DOGE:dogecoin' }, /ONRAMP_OFFERS/],
    [{ ONRAMP_BTC_ADDRESS: '0x8ba1f109551bD432803012645Ac136ddd64DBA72' }, /ONRAMP_BTC_ADDRESS/],
    [{ ONRAMP_SOL_ADDRESS: 'short' }, /ONRAMP_SOL_ADDRESS/],
  ])('refuses %o with a clear ConfigError', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});
