import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/index.js';
import { PRICE_FRESH_SECONDS, PRICE_USABLE_SECONDS } from '../src/prices/readPrices.js';
import { DIALECTS, dialectLabel, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, PHONE } from './testApp.js';

/** One request the stand-in received. */
interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Answer =
  | { kind: 'price'; amount: string; base?: string; currency?: string }
  | { kind: 'status'; status: number }
  | { kind: 'text'; body: string }
  | { kind: 'redirect'; location: string };

/**
 * A loopback stand-in for Coinbase's public spot-price API (`GET /v2/prices/<BASE>-<CURRENCY>/spot`), under a
 * path prefix (PRICE_URL may have one). Records every request exactly as it arrived and answers each pair as
 * the test says (by default a price per asset).
 */
function createStandIn() {
  const received: Received[] = [];
  const answers = new Map<string, Answer>();
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = request.url ?? '';
    received.push({
      method: request.method ?? '',
      path,
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    if (path === '/elsewhere/eth') {
      // Where a redirect points: a well-formed ETH price, which Dial must not follow to.
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"data":{"amount":"1.00","base":"ETH","currency":"USD"}}');
      return;
    }
    const pair = /^\/coinbase\/v2\/prices\/([A-Z]+)-([A-Z]+)\/spot$/.exec(path);
    if (pair === null || request.method !== 'GET') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"id":"not_found"}]}');
      return;
    }
    const [, base, currency] = pair as unknown as [string, string, string];
    const answer = answers.get(`${base}-${currency}`) ?? {
      kind: 'price',
      amount: DEFAULT_PRICES[base] ?? '1',
    };
    switch (answer.kind) {
      case 'price':
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            data: { amount: answer.amount, base: answer.base ?? base, currency: answer.currency ?? currency },
          }),
        );
        return;
      case 'status':
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end('{"errors":[]}');
        return;
      case 'text':
        response.writeHead(200, { 'content-type': 'application/json' }).end(answer.body);
        return;
      case 'redirect':
        response.writeHead(302, { location: answer.location }).end();
        return;
    }
  });
  return {
    server,
    received,
    answers,
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/coinbase`,
  };
}

const DEFAULT_PRICES: Record<string, string> = { ETH: '3012.45', POL: '0.2311', USDC: '0.9998' };

/** What Node's fetch sends by itself, and the one header Dial adds; nothing else may leave. */
const EXPECTED_HEADERS = [
  'accept',
  'accept-encoding',
  'accept-language',
  'connection',
  'host',
  'sec-fetch-mode',
  'user-agent',
];

describe('GET /api/prices with the sandbox source', () => {
  const db = useTestDatabase('sqlite');

  it('gives the fixed test prices in USD to a signed-in user', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    const response = await t.get('/api/prices', { token });
    expect(response.statusCode).toBe(200);
    const fetchedAt = t.clock.now().toISOString();
    expect(response.json()).toEqual({
      currency: 'USD',
      source: 'sandbox',
      prices: [
        { symbol: 'ETH', price: '3000.00', fetchedAt },
        { symbol: 'POL', price: '0.50', fetchedAt },
        { symbol: 'USDC', price: '1.00', fetchedAt },
      ],
    });
    expect((await t.get('/api/prices?currency=USD', { token })).json().prices).toHaveLength(3);
  });

  it('answers 401 unauthorized without a session', async () => {
    const t = await createTestApp(db());
    expectError(await t.get('/api/prices'), 401, 'unauthorized');
  });

  it('answers 400 currency_not_supported for a currency it does not price, 400 invalid_data for no currency code', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('sms', PHONE);
    expectError(await t.get('/api/prices?currency=EUR', { token }), 400, 'currency_not_supported');
    expectError(await t.get('/api/prices?currency=XXX', { token }), 400, 'currency_not_supported');
    for (const query of [
      'currency=usd',
      'currency=US',
      'currency=USD%2F..%2Fspot',
      'currency=USD&asset=ETH',
    ]) {
      expectError(await t.get(`/api/prices?${query}`, { token }), 400, 'invalid_data');
    }
  });

  it('answers no prices with PRICE_SOURCE=off', async () => {
    const t = await createTestApp(db(), {
      config: { prices: { source: 'off', url: 'https://example.com' } },
    });
    const { token } = await t.signIn('sms', PHONE);
    expect((await t.get('/api/prices', { token })).json()).toEqual({
      currency: 'USD',
      source: 'off',
      prices: [],
    });
  });

  it('never gives the made-up sandbox prices in production, even from a configuration built by hand', async () => {
    const t = await createTestApp(db(), {
      config: { environment: 'production', prices: { source: 'sandbox', url: 'https://example.com' } },
    });
    const { token } = await t.signIn('sms', PHONE);
    expect((await t.get('/api/prices', { token })).json()).toEqual({
      currency: 'USD',
      source: 'off',
      prices: [],
    });
  });
});

describe.each(DIALECTS)('GET /api/prices from Coinbase (a loopback stand-in), on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const standIn = createStandIn();
  beforeAll(async () => {
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => standIn.server.close(resolve));
  });
  beforeEach(() => {
    standIn.received.length = 0;
    standIn.answers.clear();
  });

  const coinbaseApp = () =>
    createTestApp(db(), { config: { prices: { source: 'coinbase', url: standIn.url() } } });

  it(`${dialectLabel(dialect)}: asks exactly GET <PRICE_URL>/v2/prices/<ASSET>-USD/spot per asset, with no cookie, key or user data`, async () => {
    const t = await coinbaseApp();
    const { token } = await t.signIn('sms', PHONE);
    const response = await t.get('/api/prices', {
      token,
      headers: { authorization: 'Bearer client-secret', 'x-forwarded-for': '203.0.113.9' },
    });
    expect(response.statusCode).toBe(200);
    const fetchedAt = t.clock.now().toISOString();
    expect(response.json()).toEqual({
      currency: 'USD',
      source: 'coinbase',
      prices: [
        { symbol: 'ETH', price: '3012.45', fetchedAt },
        { symbol: 'POL', price: '0.2311', fetchedAt },
        { symbol: 'USDC', price: '0.9998', fetchedAt },
      ],
    });

    expect(standIn.received.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      'GET /coinbase/v2/prices/ETH-USD/spot',
      'GET /coinbase/v2/prices/POL-USD/spot',
      'GET /coinbase/v2/prices/USDC-USD/spot',
    ]);
    for (const request of standIn.received) {
      expect(Object.keys(request.headers).sort()).toEqual(EXPECTED_HEADERS);
      expect(request.headers.accept).toBe('application/json');
      expect(request.headers.host).toBe(new URL(standIn.url()).host);
      expect(request.body).toBe('');
      // Nothing of the person's request goes on: not the session, not their headers, not their address.
      const raw = JSON.stringify(request.headers);
      for (const secret of [token, 'client-secret', '203.0.113.9', PHONE]) expect(raw).not.toContain(secret);
    }
  });

  it(`${dialectLabel(dialect)}: keeps each price a minute in the database, for every server sharing it`, async () => {
    const first = await coinbaseApp();
    const second = await coinbaseApp();
    const one = (await first.signIn('sms', PHONE)).token;
    const two = (await second.signIn('email', 'ada@example.com')).token;

    const fromFirst = (await first.get('/api/prices', { token: one })).json();
    expect(standIn.received).toHaveLength(3);
    // The other server answers from the database, without asking Coinbase.
    second.clock.advance((PRICE_FRESH_SECONDS - 1) * 1000);
    standIn.answers.set('ETH-USD', { kind: 'price', amount: '9999.99' });
    expect((await second.get('/api/prices', { token: two })).json()).toEqual(fromFirst);
    expect(standIn.received).toHaveLength(3);

    // A minute later, the next request (on either server) asks again and stores the new price for both.
    second.clock.advance(1000);
    const refreshed = (await second.get('/api/prices', { token: two })).json();
    expect(standIn.received).toHaveLength(6);
    expect(refreshed.prices[0]).toEqual({
      symbol: 'ETH',
      price: '9999.99',
      fetchedAt: second.clock.now().toISOString(),
    });
    first.clock.advance(PRICE_FRESH_SECONDS * 1000);
    expect((await first.get('/api/prices', { token: one })).json().prices[0].price).toBe('9999.99');
    expect(standIn.received).toHaveLength(6);
    const stored = await db().selectFrom('price_quotes').selectAll().orderBy('symbol').execute();
    expect(stored.map((row) => [row.symbol, row.currency, row.price])).toEqual([
      ['ETH', 'USD', '9999.99'],
      ['POL', 'USD', '0.2311'],
      ['USDC', 'USD', '0.9998'],
    ]);
  });

  it(`${dialectLabel(dialect)}: asks once for requests that arrive together`, async () => {
    const t = await coinbaseApp();
    const { token } = await t.signIn('sms', PHONE);
    const answers = await Promise.all([1, 2, 3, 4].map(() => t.get('/api/prices', { token })));
    expect(answers.map((answer) => answer.json().prices.length)).toEqual([3, 3, 3, 3]);
    expect(standIn.received).toHaveLength(3);
  });

  it(`${dialectLabel(dialect)}: leaves out a price Coinbase cannot give, never a guess`, async () => {
    const t = await coinbaseApp();
    const { token } = await t.signIn('sms', PHONE);
    standIn.answers.set('ETH-USD', { kind: 'status', status: 500 });
    standIn.answers.set('POL-USD', { kind: 'status', status: 429 });
    const response = await t.get('/api/prices', { token });
    expect(response.statusCode).toBe(200);
    expect(response.json().prices.map((quote: { symbol: string }) => quote.symbol)).toEqual(['USDC']);
    const stored = await db().selectFrom('price_quotes').select('symbol').execute();
    expect(stored.map((row) => row.symbol)).toEqual(['USDC']);
  });

  it(`${dialectLabel(dialect)}: refuses answers that are not a price of the pair asked for (a wrong pair, zero, garbage, a redirect)`, async () => {
    const t = await coinbaseApp();
    const { token } = await t.signIn('sms', PHONE);
    const bad: Answer[] = [
      { kind: 'price', amount: '3012.45', base: 'BTC' },
      { kind: 'price', amount: '3012.45', currency: 'EUR' },
      { kind: 'price', amount: '0.00' },
      { kind: 'price', amount: '-5' },
      { kind: 'price', amount: '1e6' },
      { kind: 'text', body: 'not json' },
      { kind: 'text', body: '{"data":null}' },
      {
        kind: 'text',
        body: `{"data":{"amount":"1","base":"ETH","currency":"USD","pad":"${'x'.repeat(20_000)}"}}`,
      },
      { kind: 'redirect', location: '/elsewhere/eth' },
    ];
    for (const answer of bad) {
      standIn.answers.set('ETH-USD', answer);
      t.clock.advance(PRICE_USABLE_SECONDS * 1000 + 1000);
      const symbols = (await t.get('/api/prices', { token }))
        .json()
        .prices.map((q: { symbol: string }) => q.symbol);
      expect({ answer, symbols }).toEqual({ answer, symbols: ['POL', 'USDC'] });
    }
  });

  it(`${dialectLabel(dialect)}: when Coinbase fails, answers a price read in the last 5 minutes, and none older`, async () => {
    const t = await coinbaseApp();
    const { token } = await t.signIn('sms', PHONE);
    const readAt = t.clock.now().toISOString();
    await t.get('/api/prices', { token });
    standIn.answers.set('ETH-USD', { kind: 'status', status: 503 });

    t.clock.advance(PRICE_USABLE_SECONDS * 1000);
    const recent = (await t.get('/api/prices', { token })).json().prices;
    expect(recent[0]).toEqual({ symbol: 'ETH', price: '3012.45', fetchedAt: readAt });

    t.clock.advance(1000);
    const later = (await t.get('/api/prices', { token })).json().prices;
    expect(later.map((quote: { symbol: string }) => quote.symbol)).toEqual(['POL', 'USDC']);
  });

  it(`${dialectLabel(dialect)}: gives no price when Coinbase cannot be reached at all`, async () => {
    const t = await createTestApp(db(), {
      // A port nothing listens on: the connection is refused.
      config: { prices: { source: 'coinbase', url: 'http://127.0.0.1:9/coinbase' } },
    });
    const { token } = await t.signIn('sms', PHONE);
    const response = await t.get('/api/prices', { token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ currency: 'USD', source: 'coinbase', prices: [] });
  });
});

describe('PRICE_SOURCE and PRICE_URL', () => {
  const production = { NODE_ENV: 'production', SHARE_ENCRYPTION_KEY: 'ab'.repeat(32) };

  it('defaults to the sandbox in development and Coinbase in production', () => {
    expect(loadConfig({}).prices).toEqual({ source: 'sandbox', url: 'https://api.coinbase.com' });
    expect(loadConfig(production).prices).toEqual({ source: 'coinbase', url: 'https://api.coinbase.com' });
    expect(loadConfig({ ...production, PRICE_SOURCE: 'off' }).prices.source).toBe('off');
    expect(loadConfig({ PRICE_SOURCE: 'coinbase', PRICE_URL: 'http://127.0.0.1:9000/cb/' }).prices).toEqual({
      source: 'coinbase',
      url: 'http://127.0.0.1:9000/cb',
    });
  });

  it('refuses the sandbox, an http PRICE_URL in production, and an unknown source', () => {
    expect(() => loadConfig({ ...production, PRICE_SOURCE: 'sandbox' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, PRICE_URL: 'http://prices.example.com' })).toThrow(
      /PRICE_URL must be an https:\/\/ URL in production/,
    );
    expect(() => loadConfig({ PRICE_SOURCE: 'coingecko' })).toThrow(
      /PRICE_SOURCE must be one of sandbox, coinbase, off/,
    );
    expect(() => loadConfig({ PRICE_URL: 'ftp://prices.example.com' })).toThrow(ConfigError);
  });
});
