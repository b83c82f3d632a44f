import { getUsdcAddress, SUPPORTED_CHAINS } from '@dial/core';
import { describe, expect, it } from 'vitest';
import { readSendLink, type SendLinkOptions } from './sendLink';
import type { SendDraft } from './useSendForm';

const BASE = 8453;
const ZORA = SUPPORTED_CHAINS.find((chain) => chain.name === 'Zora')!.id;
const blank: SendDraft = {
  mode: 'phone',
  countryCode: 'US',
  phone: '',
  address: '',
  asset: 'native',
  amount: '',
};
const options: SendLinkOptions = {
  chains: SUPPORTED_CHAINS,
  chainId: BASE,
  blank,
  hasUsdc: (chainId) => getUsdcAddress(chainId) !== undefined,
};

describe('readSendLink', () => {
  it('is null for a query that names nothing of a send', () => {
    expect(readSendLink('', options)).toBeNull();
    expect(readSendLink('?utm_source=mail', options)).toBeNull();
  });

  it('fills the form from a phone number, an amount and USDC, as if they were typed', () => {
    const link = readSendLink('?to=%2B447400123456&amount=0.1&asset=usdc', options);
    expect(link).toEqual({
      draft: { ...blank, phone: '+44 7400 123456', countryCode: 'GB', asset: 'usdc', amount: '0.1' },
      chainId: BASE,
      problems: [],
    });
  });

  it("reads a '+' left unescaped (a space in a query) as the '+' it was", () => {
    expect(readSendLink('?to=+447400123456', options)?.draft.phone).toBe('+44 7400 123456');
  });

  it('takes a 0x value as an address, and a network by name or chain id', () => {
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const byName = readSendLink(`?to=${address}&network=base-sepolia&asset=ETH`, options);
    expect(byName?.draft).toEqual({ ...blank, mode: 'address', address, asset: 'native' });
    expect(byName?.chainId).toBe(84532);
    expect(readSendLink(`?network=${ZORA}`, options)?.chainId).toBe(ZORA);
  });

  it('leaves bad values in the fields, where the form shows its usual errors', () => {
    const link = readSendLink('?to=12&amount=1,5', options);
    // Formatted as the field formats typing, in the form's country.
    expect(link?.draft).toMatchObject({ mode: 'phone', phone: '1 2', amount: '1,5' });
    expect(link?.problems).toEqual([]);
    expect(readSendLink('?to=0x12', options)?.draft).toMatchObject({ mode: 'address', address: '0x12' });
  });

  it('says what cannot be picked, and leaves out an amount whose units are unknown', () => {
    const noUsdc = readSendLink(`?amount=5&asset=usdc&network=zora`, options);
    expect(noUsdc?.draft).toEqual(blank);
    expect(noUsdc?.chainId).toBe(ZORA);
    expect(noUsdc?.problems).toEqual(['The link asks for USDC, which is not available on Zora.']);

    const unknownAsset = readSendLink('?amount=5&asset=<b>dai</b>', options);
    expect(unknownAsset?.draft.amount).toBe('');
    expect(unknownAsset?.problems).toEqual([
      'The link asks for an asset that cannot be sent on Base. Pick one below.',
    ]);

    const unknownNetwork = readSendLink('?amount=5&network=ethereum', options);
    expect(unknownNetwork?.chainId).toBe(BASE);
    expect(unknownNetwork?.draft.amount).toBe('');
    expect(unknownNetwork?.problems).toEqual([
      'The link names a network that is not offered here. This form is on Base: check it is the one you mean.',
    ]);
  });

  it('cuts values too long to be anything valid', () => {
    const link = readSendLink(`?amount=${'9'.repeat(5000)}`, options);
    expect(link?.draft.amount).toHaveLength(200);
  });
});
