import { describe, expect, it } from 'vitest';
import { buildOnrampUrl, COINBASE_ONRAMP_PAY_URL, type OnrampUrlOptions } from './buildOnrampUrl.js';
import { isDialError } from './errors.js';
import { DEFAULT_ONRAMP_OFFERS, parseOnrampOffers } from './onrampOffers.js';

const OPTIONS: OnrampUrlOptions = {
  baseUrl: COINBASE_ONRAMP_PAY_URL,
  appId: 'project-123',
  sessionToken: 'ZWJlMjE0&x=1',
  walletAppId: 'wallet-eu',
  experience: 'buy',
  amount: '25',
  asset: 'USDC',
  network: 'base',
  partnerUserId: 'p0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6',
};

function params(url: string): [string, string][] {
  return [...new URL(url).searchParams.entries()];
}

function expectInvalid(run: () => unknown): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(isDialError(thrown, 'invalid_data')).toBe(true);
}

describe('buildOnrampUrl', () => {
  it('builds the buy page link with exactly the nine parameters, in a stable order', () => {
    const url = buildOnrampUrl(OPTIONS);
    expect(url.startsWith('https://pay.coinbase.com/buy/select-asset?')).toBe(true);
    expect(params(url)).toEqual([
      ['appId', 'project-123'],
      ['sessionToken', 'ZWJlMjE0&x=1'],
      ['endPartnerName', 'dial:wallet-eu'],
      ['defaultExperience', 'buy'],
      ['presetCryptoAmount', '25'],
      ['defaultNetwork', 'base'],
      ['defaultPaymentMethod', 'CARD'],
      ['defaultAsset', 'USDC'],
      ['partnerUserId', 'p0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6'],
    ]);
    // Encoded, so a value cannot add a parameter of its own.
    expect(url).toContain('sessionToken=ZWJlMjE0%26x%3D1');
    expect(url).toContain('endPartnerName=dial%3Awallet-eu');
  });

  it('uses CARD for buy and CRYPTO_ACCOUNT for send', () => {
    expect(new URL(buildOnrampUrl(OPTIONS)).searchParams.get('defaultPaymentMethod')).toBe('CARD');
    const send = new URL(buildOnrampUrl({ ...OPTIONS, experience: 'send' })).searchParams;
    expect(send.get('defaultPaymentMethod')).toBe('CRYPTO_ACCOUNT');
    expect(send.get('defaultExperience')).toBe('send');
  });

  it('puts a 0 before an amount that starts with a dot', () => {
    const url = buildOnrampUrl({ ...OPTIONS, asset: 'ETH', amount: '.5' });
    expect(new URL(url).searchParams.get('presetCryptoAmount')).toBe('0.5');
    expect(
      new URL(buildOnrampUrl({ ...OPTIONS, amount: '0.25' })).searchParams.get('presetCryptoAmount'),
    ).toBe('0.25');
  });

  it('takes another base URL (the sandbox) and replaces its query', () => {
    const url = buildOnrampUrl({ ...OPTIONS, baseUrl: 'http://localhost:8080/onramp/sandbox/buy?old=1' });
    expect(url.startsWith('http://localhost:8080/onramp/sandbox/buy?appId=')).toBe(true);
    expect(new URL(url).searchParams.has('old')).toBe(false);
  });

  it('passes each network and asset of the table', () => {
    for (const offer of DEFAULT_ONRAMP_OFFERS) {
      const search = new URL(buildOnrampUrl({ ...OPTIONS, ...offer })).searchParams;
      expect([search.get('defaultAsset'), search.get('defaultNetwork')]).toEqual([
        offer.asset,
        offer.network,
      ]);
    }
  });

  it('refuses combinations outside the table with invalid_data', () => {
    expectInvalid(() => buildOnrampUrl({ ...OPTIONS, asset: 'POL', network: 'base' }));
    expectInvalid(() => buildOnrampUrl({ ...OPTIONS, asset: 'ETH', network: 'polygon' }));
    expectInvalid(() => buildOnrampUrl({ ...OPTIONS, asset: 'BTC', network: 'base' }));
    expectInvalid(() => buildOnrampUrl({ ...OPTIONS, asset: 'USDC', network: 'zora' }));
    expectInvalid(() => buildOnrampUrl({ ...OPTIONS, asset: 'USDC', network: 'base', offers: [] }));
  });

  it('accepts a combination the configuration added', () => {
    const offers = [...DEFAULT_ONRAMP_OFFERS, ...parseOnrampOffers('USDC:optimism')];
    const url = buildOnrampUrl({ ...OPTIONS, network: 'optimism', offers });
    expect(new URL(url).searchParams.get('defaultNetwork')).toBe('optimism');
  });

  it('refuses bad amounts, experiences, base URLs and empty values', () => {
    for (const amount of ['', '0', '0.0', '-1', '1e3', '1.', '1,5', ' 1', 'abc']) {
      expectInvalid(() => buildOnrampUrl({ ...OPTIONS, amount }));
    }
    expectInvalid(() => buildOnrampUrl({ ...OPTIONS, experience: 'sell' as 'buy' }));
    expectInvalid(() => buildOnrampUrl({ ...OPTIONS, baseUrl: 'javascript:alert(1)' }));
    expectInvalid(() => buildOnrampUrl({ ...OPTIONS, baseUrl: 'not a url' }));
    expectInvalid(() => buildOnrampUrl({ ...OPTIONS, sessionToken: '' }));
    expectInvalid(() => buildOnrampUrl({ ...OPTIONS, appId: ' ' }));
    expectInvalid(() => buildOnrampUrl({ ...OPTIONS, partnerUserId: 'x'.repeat(50) }));
  });
});

describe('parseOnrampOffers', () => {
  it('reads ASSET:network pairs, and refuses unknown assets', () => {
    expect(parseOnrampOffers(' usdc:optimism, ETH:optimism ,')).toEqual([
      { asset: 'USDC', network: 'optimism' },
      { asset: 'ETH', network: 'optimism' },
    ]);
    expectInvalid(() => parseOnrampOffers('DOGE:dogecoin'));
    expectInvalid(() => parseOnrampOffers('USDC'));
  });
});
