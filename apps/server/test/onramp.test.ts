import { randomBytes } from 'node:crypto';
import { encodeShare, SHARE_LENGTH } from '@dial/core';
import { type DevChain, startDevChain, TEST_USDC_ABI } from '@dial/devchain';
import type { LightMyRequestResponse } from 'fastify';
import { createPublicClient, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/config/index.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { createTestApp, ORIGIN, PHONE, SANDBOX_ONRAMP, type TestApp } from './testApp.js';
import { registerWallet, testWallet } from './walletProof.js';

const ADDRESS = testWallet(1).address;
const OTHER_ADDRESS = '0x0000000000000000000000000000000000000B0b';

let chain: DevChain;
beforeAll(async () => {
  chain = await startDevChain({ port: 0 });
});
afterAll(async () => {
  await chain.close();
});

function share(): string {
  return encodeShare(new Uint8Array(randomBytes(SHARE_LENGTH)));
}

/** A signed-in user with a registered wallet. */
async function userWithWallet(t: TestApp, phone = PHONE): Promise<string> {
  const { token } = await t.signIn('sms', phone);
  const { response: created } = await registerWallet(t, token, { authShare: share() });
  expect(created.statusCode).toBe(201);
  return token;
}

const BUY_25_USDC = { asset: 'USDC', network: 'base', amount: '25', experience: 'buy' } as const;

/** The session token in a buy link. */
function tokenOf(url: string): string {
  const token = new URL(url).searchParams.get('sessionToken');
  if (token === null) throw new Error('no sessionToken in the link');
  return token;
}

/** The checkout page's path and query, as the browser opens it. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function pay(t: TestApp, fields: Record<string, string>): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/onramp/sandbox/pay',
    headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

const TEST_CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };

describe.each(DIALECTS)('the sandbox on-ramp on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const lines: string[] = [];

  const sandboxApp = (config: Partial<AppConfig> = {}) =>
    createTestApp(db(), {
      config: {
        onramp: SANDBOX_ONRAMP,
        localChain: { start: false, port: 0, rpcUrl: chain.url, usdc: chain.usdc },
        logLevel: 'trace',
        ...config,
      },
      deps: { logStream: { write: (line) => void lines.push(line) } },
    });

  const client = () => createPublicClient({ transport: http(chain.url) });
  const usdcOf = (address: `0x${string}`) =>
    client().readContract({
      address: chain.usdc,
      abi: TEST_USDC_ABI,
      functionName: 'balanceOf',
      args: [address],
    });

  it('offers the sandbox in /api/config, crediting the local chain', async () => {
    const t = await sandboxApp();
    const { onramp } = (await t.get('/api/config')).json();
    expect(onramp.provider).toBe('sandbox');
    expect(onramp.offers).toContainEqual({
      asset: 'USDC',
      network: 'base',
      networkName: 'Base',
      chainId: 31337,
    });
    expect(onramp.offers).toContainEqual({
      asset: 'POL',
      network: 'polygon',
      networkName: 'Polygon',
      chainId: 31337,
    });
    // Not on a network the wallet does not list, and no BTC or SOL: the sandbox cannot credit them.
    expect(onramp.offers.map((offer: { network: string }) => offer.network)).not.toContain('ethereum');
    expect(onramp.offers.map((offer: { asset: string }) => offer.asset)).not.toContain('BTC');
  });

  it('builds the sandbox link for the signed-in user’s own wallet', async () => {
    const t = await sandboxApp();
    const token = await userWithWallet(t);
    const response = await t.post('/api/onramp/session', { ...BUY_25_USDC, amount: '25' }, { token });
    expect(response.statusCode).toBe(200);
    const { url, provider } = response.json();
    expect(provider).toBe('sandbox');
    const link = new URL(url);
    expect(`${link.origin}${link.pathname}`).toBe(`${ORIGIN}/onramp/sandbox/buy`);
    const params = [...link.searchParams.entries()];
    expect(params.map(([name]) => name)).toEqual([
      'appId',
      'sessionToken',
      'endPartnerName',
      'defaultExperience',
      'presetCryptoAmount',
      'defaultNetwork',
      'defaultPaymentMethod',
      'defaultAsset',
      'partnerUserId',
    ]);
    expect(Object.fromEntries(params)).toMatchObject({
      appId: 'dial-sandbox',
      endPartnerName: 'dial:dial-test',
      defaultExperience: 'buy',
      presetCryptoAmount: '25',
      defaultNetwork: 'base',
      defaultPaymentMethod: 'CARD',
      defaultAsset: 'USDC',
    });
    expect(tokenOf(url)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Stable and opaque: the same for the same user, and neither the user id nor the address.
    const partner = link.searchParams.get('partnerUserId')!;
    expect(partner.length).toBeLessThan(50);
    const again = await t.post(
      '/api/onramp/session',
      { ...BUY_25_USDC, amount: '.5', experience: 'send' },
      { token },
    );
    const second = new URL(again.json().url).searchParams;
    expect(second.get('partnerUserId')).toBe(partner);
    expect(second.get('presetCryptoAmount')).toBe('0.5');
    expect(second.get('defaultPaymentMethod')).toBe('CRYPTO_ACCOUNT');
    const me = (await t.get('/api/me', { token })).json();
    expect(me.user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(url).not.toContain(me.user.id);
    expect(url.toLowerCase()).not.toContain(ADDRESS.toLowerCase());
    // Stored hashed: the token itself is nowhere in the database.
    const rows = await db().selectFrom('onramp_sessions').selectAll().execute();
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(tokenOf(url));
    expect(rows[0]).toMatchObject({ wallet_address: ADDRESS, asset: 'USDC', network: 'base', used_at: null });
  });

  it('requires sign-in and a wallet', async () => {
    const t = await sandboxApp();
    const anonymous = await t.post('/api/onramp/session', BUY_25_USDC);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('unauthorized');
    const { token } = await t.signIn('sms', PHONE);
    const noWallet = await t.post('/api/onramp/session', BUY_25_USDC, { token });
    expect(noWallet.statusCode).toBe(404);
    expect(noWallet.json().error.code).toBe('wallet_not_found');
  });

  it('refuses combinations outside the offers, bad amounts and extra fields with invalid_data', async () => {
    const t = await sandboxApp();
    const token = await userWithWallet(t);
    for (const body of [
      { ...BUY_25_USDC, asset: 'POL', network: 'base' },
      { ...BUY_25_USDC, asset: 'BTC', network: 'bitcoin' },
      { ...BUY_25_USDC, network: 'ethereum' },
      { ...BUY_25_USDC, network: 'zora' },
      { ...BUY_25_USDC, amount: '0' },
      { ...BUY_25_USDC, amount: '-1' },
      { ...BUY_25_USDC, amount: '1.1234567' },
      { ...BUY_25_USDC, amount: '20000' },
      { ...BUY_25_USDC, asset: 'ETH', amount: '11' },
      { ...BUY_25_USDC, experience: 'sell' },
      { ...BUY_25_USDC, address: OTHER_ADDRESS },
    ]) {
      const response = await t.post('/api/onramp/session', body, { token });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('invalid_data');
    }
    expect(await db().selectFrom('onramp_sessions').selectAll().execute()).toEqual([]);
  });

  it('rate-limits session tokens per user', async () => {
    const t = await sandboxApp();
    const token = await userWithWallet(t);
    for (let i = 0; i < 10; i++) {
      expect((await t.post('/api/onramp/session', BUY_25_USDC, { token })).statusCode).toBe(200);
    }
    const refused = await t.post('/api/onramp/session', BUY_25_USDC, { token });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('never allows other origins: no CORS header, and a cross-site POST is refused', async () => {
    const t = await sandboxApp();
    const token = await userWithWallet(t);
    const evil = await t.post('/api/onramp/session', BUY_25_USDC, {
      token,
      headers: { origin: 'https://evil.example' },
    });
    expect(evil.statusCode).toBe(403);
    expect(evil.json().error.code).toBe('forbidden_origin');
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/onramp/session',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    const ok = await t.post('/api/onramp/session', BUY_25_USDC, { token });
    for (const response of [evil, preflight, ok]) {
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('shows the order on the checkout page and never logs the session token', async () => {
    lines.length = 0;
    const t = await sandboxApp();
    const token = await userWithWallet(t);
    const { url } = (await t.post('/api/onramp/session', BUY_25_USDC, { token })).json();
    const page = await t.get(pathOf(url));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(page.body).not.toMatch(/<script|style=/);
    // So that the form post carries our Origin (no-referrer makes it null), never the page's query.
    expect(page.body).toContain('<meta name="referrer" content="strict-origin">');
    expect(page.body).toContain('Sandbox: credits test funds on the local chain');
    expect(page.body).toMatch(/<dt>Asset<\/dt><dd>USDC<\/dd>/);
    expect(page.body).toMatch(/<dt>Network<\/dt><dd>Base \(credited on the local chain\)<\/dd>/);
    expect(page.body).toMatch(/<dt>Amount<\/dt><dd>25 USDC<\/dd>/);
    expect(page.body).toMatch(/<dt>Payment method<\/dt><dd>Card<\/dd>/);
    expect(page.body).toContain('<label for="card-number">Card number</label>');
    expect(page.body).toContain('Pay 25 USDC');
    const css = await t.get('/onramp/sandbox/checkout.css');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    await pay(t, { token: tokenOf(url), ...TEST_CARD, cvc: 'x' });
    const log = lines.join('\n');
    expect(log).toContain('/onramp/sandbox/buy?');
    expect(log).toContain('sessionToken=[redacted]');
    expect(log).not.toContain(tokenOf(url));
    expect(log).not.toContain(encodeURIComponent(tokenOf(url)));
  });

  it('refuses forged, altered and expired tokens', async () => {
    const t = await sandboxApp();
    const token = await userWithWallet(t);
    const { url } = (await t.post('/api/onramp/session', BUY_25_USDC, { token })).json();

    const forged = new URL(url);
    forged.searchParams.set('sessionToken', randomBytes(32).toString('base64url'));
    const forgedPage = await t.get(pathOf(forged.toString()));
    expect(forgedPage.statusCode).toBe(404);
    expect(forgedPage.body).toContain('not issued by this Dial server');
    const forgedPay = await pay(t, { token: forged.searchParams.get('sessionToken')!, ...TEST_CARD });
    expect(forgedPay.statusCode).toBe(404);

    const altered = new URL(url);
    altered.searchParams.set('presetCryptoAmount', '2500');
    const alteredPage = await t.get(pathOf(altered.toString()));
    expect(alteredPage.statusCode).toBe(400);
    expect(alteredPage.body).toContain('does not match the order');

    t.clock.advance(5 * 60_000);
    const expiredPage = await t.get(pathOf(url));
    expect(expiredPage.statusCode).toBe(410);
    expect(expiredPage.body).toContain('expired');
    const before = await usdcOf(ADDRESS);
    const expiredPay = await pay(t, { token: tokenOf(url), ...TEST_CARD });
    expect(expiredPay.statusCode).toBe(410);
    expect(await usdcOf(ADDRESS)).toBe(before);
  });

  it('refuses a declined or wrong card and keeps the token usable', async () => {
    const t = await sandboxApp();
    const token = await userWithWallet(t);
    const { url } = (await t.post('/api/onramp/session', BUY_25_USDC, { token })).json();
    const before = await usdcOf(ADDRESS);
    for (const [fields, message] of [
      [{ ...TEST_CARD, cardNumber: '4000 0000 0000 0002' }, 'declined'],
      [{ ...TEST_CARD, cardNumber: '5555 5555 5555 4444' }, 'only accepts the test card'],
      [{ ...TEST_CARD, expiry: '01/20' }, 'expired'],
      [{ ...TEST_CARD, cvc: '' }, 'security code'],
    ] as const) {
      const refused = await pay(t, { token: tokenOf(url), ...fields });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain(message);
      expect(refused.body).toContain('role="alert"');
    }
    expect(await usdcOf(ADDRESS)).toBe(before);
    expect((await t.get(pathOf(url))).statusCode).toBe(200);
  });

  it('pays by test card: credits 25 USDC on the local chain, redirects back to the app, and only once', async () => {
    const t = await sandboxApp();
    const token = await userWithWallet(t);
    const { url } = (await t.post('/api/onramp/session', BUY_25_USDC, { token })).json();
    const before = await usdcOf(ADDRESS);
    const paid = await pay(t, { token: tokenOf(url), ...TEST_CARD });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${ORIGIN}/?onramp=credited`);
    expect((await usdcOf(ADDRESS)) - before).toBe(25_000_000n);
    const row = await db().selectFrom('onramp_sessions').selectAll().executeTakeFirstOrThrow();
    expect(row.used_at).toBe(t.clock.now().toISOString());
    expect(row.outcome).toBe('credited');

    const again = await pay(t, { token: tokenOf(url), ...TEST_CARD });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('already used');
    expect((await t.get(pathOf(url))).statusCode).toBe(409);
    expect((await usdcOf(ADDRESS)) - before).toBe(25_000_000n);
  });

  it('pays once when the same token is used twice at once', async () => {
    const t = await sandboxApp();
    const token = await userWithWallet(t);
    const { url } = (await t.post('/api/onramp/session', BUY_25_USDC, { token })).json();
    const before = await usdcOf(ADDRESS);
    const answers = await Promise.all([0, 1, 2].map(() => pay(t, { token: tokenOf(url), ...TEST_CARD })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([303, 409, 409]);
    expect((await usdcOf(ADDRESS)) - before).toBe(25_000_000n);
  });

  it('deposits from the exchange account (send): credits native currency from the faucet', async () => {
    const t = await sandboxApp();
    const token = await userWithWallet(t);
    const response = await t.post(
      '/api/onramp/session',
      { asset: 'ETH', network: 'arbitrum', amount: '.5', experience: 'send' },
      { token },
    );
    expect(response.statusCode).toBe(200);
    const { url } = response.json();
    const page = await t.get(pathOf(url));
    expect(page.body).toMatch(/<dt>Payment method<\/dt><dd>Exchange account<\/dd>/);
    expect(page.body).toContain('Send 0.5 ETH');
    const before = await client().getBalance({ address: ADDRESS });
    const paid = await pay(t, { token: tokenOf(url), account: 'sandbox-exchange' });
    expect(paid.statusCode).toBe(303);
    expect((await client().getBalance({ address: ADDRESS })) - before).toBe(parseEther('0.5'));
  });

  it('says so and credits nothing when the local chain cannot be reached', async () => {
    const t = await sandboxApp({
      localChain: { start: false, port: 0, rpcUrl: 'http://127.0.0.1:9', usdc: chain.usdc },
    });
    const token = await userWithWallet(t);
    const { url } = (await t.post('/api/onramp/session', BUY_25_USDC, { token })).json();
    const paid = await pay(t, { token: tokenOf(url), ...TEST_CARD });
    expect(paid.statusCode).toBe(503);
    expect(paid.body).toContain('could not be reached');
    const row = await db().selectFrom('onramp_sessions').selectAll().executeTakeFirstOrThrow();
    expect(row.outcome).toBe('failed');
  });

  it('is not there without an on-ramp (production without CDP keys)', async () => {
    const t = await createTestApp(db(), { config: { environment: 'production', onramp: null } });
    expect((await t.get('/api/config')).json().onramp).toBeNull();
    const { token } = await t.signIn('sms', PHONE);
    expect((await t.post('/api/onramp/session', BUY_25_USDC, { token })).statusCode).toBe(404);
    expect((await t.get('/onramp/sandbox/buy?sessionToken=x')).statusCode).toBe(404);
  });

  it('offers no sandbox in production even if configured so', async () => {
    const t = await createTestApp(db(), {
      config: {
        environment: 'production',
        onramp: SANDBOX_ONRAMP,
        localChain: { start: false, port: 0, rpcUrl: chain.url, usdc: chain.usdc },
      },
    });
    expect((await t.get('/api/config')).json().onramp).toBeNull();
    expect((await t.get('/onramp/sandbox/checkout.css')).statusCode).toBe(404);
  });
});
