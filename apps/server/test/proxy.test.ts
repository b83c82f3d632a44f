import { generateKeyPairSync } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { COINBASE_ONRAMP_PAY_URL, DEFAULT_ONRAMP_OFFERS } from '@dial/core';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../src/config/index.js';
import { DIALECTS, dialectLabel, useTestDatabase } from './databases.js';
import { listenOnLoopback, postFrom } from './rawHttp.js';
import { createTestApp, ORIGIN, PHONE } from './testApp.js';
import { registerWallet } from './walletProof.js';

/** Loopback addresses of their own, so the app can tell the proxy from the clients behind it. */
const PROXY_ADDRESS = '127.0.0.2';
const ATTACKER_ADDRESS = '127.0.0.3';
const OTHER_CLIENT_ADDRESS = '127.0.0.4';

/**
 * A reverse proxy in front of the app, as nginx with `proxy_set_header X-Forwarded-For
 * $proxy_add_x_forwarded_for`: it keeps whatever X-Forwarded-For the client sent and appends the address it
 * saw the client connect from. It reaches the app from {@link PROXY_ADDRESS}.
 */
async function startAppendingProxy(appPort: number): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((incoming, outgoing) => {
    const seen = incoming.socket.remoteAddress ?? '';
    const prior = incoming.headers['x-forwarded-for'];
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: appPort,
        localAddress: PROXY_ADDRESS,
        method: incoming.method,
        path: incoming.url,
        agent: false,
        headers: { ...incoming.headers, 'x-forwarded-for': prior === undefined ? seen : `${prior}, ${seen}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.each(DIALECTS)('X-Forwarded-For behind a proxy that appends the client address (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const servers: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    while (servers.length > 0) await servers.pop()?.close();
  });

  /** The app on a real port with TRUST_PROXY as given, and the appending proxy in front of it. */
  async function appBehindProxy(trustProxy: string, config: Parameters<typeof createTestApp>[1] = {}) {
    const t = await createTestApp(db(), {
      ...config,
      config: { ...config.config, trustProxy: parseTrustProxy(trustProxy) },
    });
    const appPort = await listenOnLoopback(t.app);
    const proxy = await startAppendingProxy(appPort);
    servers.push(proxy);
    return { t, appPort, proxyPort: proxy.port };
  }

  /** 30 sign-in starts, each for another address and with another forged X-Forwarded-For. */
  async function forgedStarts(port: number, localAddress: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await postFrom(
        port,
        '/api/auth/otp/start',
        { channel: 'email', to: `victim${i}@example.com` },
        { localAddress, headers: { 'x-forwarded-for': `203.0.113.${i}` } },
      );
      statuses.push(response.status);
    }
    return statuses;
  }

  it.each(['1', PROXY_ADDRESS, `${PROXY_ADDRESS}/32, 10.0.0.0/8`])(
    `TRUST_PROXY=%s: an attacker forging X-Forwarded-For is held to OTP_STARTS_PER_IP (20) on ${dialectLabel(dialect)}`,
    async (trustProxy) => {
      const { t, proxyPort } = await appBehindProxy(trustProxy);
      expect(t.config.rateLimits.otpStartsPerIp.max).toBe(20);

      const statuses = await forgedStarts(proxyPort, ATTACKER_ADDRESS);
      expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
      expect(statuses.slice(20)).toEqual(Array(10).fill(429));
      expect(t.transport.sent).toHaveLength(20);

      // The limit is the attacker's own: another person behind the same proxy still gets a code.
      const other = await postFrom(
        proxyPort,
        '/api/auth/otp/start',
        { channel: 'email', to: 'someone.else@example.com' },
        { localAddress: OTHER_CLIENT_ADDRESS },
      );
      expect(other.status).toBe(200);
    },
  );

  it(`TRUST_PROXY=${PROXY_ADDRESS}: a client reaching the app directly cannot forge its address either`, async () => {
    const { appPort } = await appBehindProxy(PROXY_ADDRESS);
    const statuses = await forgedStarts(appPort, ATTACKER_ADDRESS);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(200));
    expect(statuses.slice(20)).toEqual(Array(10).fill(429));
  });

  it('without TRUST_PROXY every client behind the proxy shares its address', async () => {
    const { proxyPort } = await appBehindProxy('false');
    const statuses = await forgedStarts(proxyPort, ATTACKER_ADDRESS);
    expect(statuses.slice(20)).toEqual(Array(10).fill(429));
    const other = await postFrom(
      proxyPort,
      '/api/auth/otp/start',
      { channel: 'email', to: 'someone.else@example.com' },
      { localAddress: OTHER_CLIENT_ADDRESS },
    );
    expect(other.status).toBe(429);
  });

  it.each(['1', PROXY_ADDRESS])(
    `TRUST_PROXY=%s: the Coinbase on-ramp is sent the client's real address as clientIp (${dialectLabel(dialect)})`,
    async (trustProxy) => {
      // Coinbase's token API, reduced to what this test reads: the body it is sent.
      const bodies: Array<{ clientIp?: string }> = [];
      const coinbase = createServer((incoming, outgoing) => {
        let text = '';
        incoming.on('data', (chunk) => {
          text += chunk;
        });
        incoming.on('end', () => {
          bodies.push(JSON.parse(text));
          outgoing.writeHead(200, { 'content-type': 'application/json' });
          outgoing.end(JSON.stringify({ token: 'cb-session-token', channel_id: '' }));
        });
      });
      await new Promise<void>((resolve) => coinbase.listen(0, '127.0.0.1', resolve));
      servers.push({ close: () => new Promise((resolve) => coinbase.close(() => resolve())) });
      const secret = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
        type: 'sec1',
        format: 'pem',
      }) as string;
      const { t, proxyPort } = await appBehindProxy(trustProxy, {
        config: {
          onramp: {
            provider: 'coinbase',
            appId: 'dial-test',
            coinbase: {
              keyId: 'organizations/org-1/apiKeys/key-1',
              keySecret: secret,
              projectId: 'project-42',
              apiUrl: `http://127.0.0.1:${(coinbase.address() as AddressInfo).port}/onramp`,
              payUrl: COINBASE_ONRAMP_PAY_URL,
            },
            offers: DEFAULT_ONRAMP_OFFERS,
            btcAddress: null,
            solAddress: null,
          },
        },
      });
      const { token } = await t.signIn('sms', PHONE);
      expect((await registerWallet(t, token)).response.statusCode).toBe(201);

      const response = await postFrom(
        proxyPort,
        '/api/onramp/session',
        { asset: 'USDC', network: 'base', amount: '10', experience: 'buy' },
        {
          localAddress: ATTACKER_ADDRESS,
          headers: { cookie: `dial_session=${token}`, origin: ORIGIN, 'x-forwarded-for': '203.0.113.9' },
        },
      );
      expect(response.status).toBe(200);
      expect(bodies.map((body) => body.clientIp)).toEqual([ATTACKER_ADDRESS]);
    },
  );
});
