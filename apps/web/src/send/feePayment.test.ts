import { describe, expect, it } from 'vitest';
import { hasEnoughFunds } from './amount';
import {
  chooseFeePayment,
  type FeeOptions,
  feeToCover,
  findShortfall,
  notSponsoredError,
  shortfallError,
} from './feePayment';

const ETH = 10n ** 18n;
const USDC = 1_000_000n;
const base = { name: 'Base', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } };
const polygon = { name: 'Polygon', nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 } };

const sponsored: FeeOptions = {
  userOperations: true,
  sponsored: true,
  operatorName: 'Dial Test',
  sponsoredLeftToday: 5,
  notSponsoredReason: null,
};
const capped: FeeOptions = {
  userOperations: true,
  sponsored: false,
  operatorName: null,
  sponsoredLeftToday: 0,
  notSponsoredReason: 'daily_cap',
};
const noBundler: FeeOptions = {
  userOperations: false,
  sponsored: false,
  operatorName: null,
  sponsoredLeftToday: null,
  notSponsoredReason: 'not_offered',
};
/** About 0.00002 ETH: 100,000 gas at 0.2 gwei. */
const FEE = 100_000n * 200_000_000n;

describe('chooseFeePayment', () => {
  it('lets the operator pay when the embedded wallet is on a chain with user operations and the server sponsors it now', () => {
    expect(chooseFeePayment('embedded', sponsored)).toEqual({ by: 'operator', operatorName: 'Dial Test' });
  });

  it('has the wallet pay otherwise: an external wallet, no bundler, no sponsorship now, or no answer from the server', () => {
    expect(chooseFeePayment('external', sponsored)).toEqual({ by: 'wallet' });
    expect(chooseFeePayment('embedded', { ...sponsored, userOperations: false })).toEqual({ by: 'wallet' });
    expect(chooseFeePayment('embedded', capped)).toEqual({ by: 'wallet' });
    expect(chooseFeePayment('embedded', noBundler)).toEqual({ by: 'wallet' });
    expect(chooseFeePayment('embedded', null)).toEqual({ by: 'wallet' });
  });
});

describe('notSponsoredError', () => {
  it("names the limit that was reached by the catalogue's code, and nothing when sponsorship is not offered", () => {
    expect(notSponsoredError(capped)?.code).toBe('sponsor_daily_cap');
    expect(notSponsoredError({ ...capped, notSponsoredReason: 'account_limit' })?.code).toBe(
      'sponsor_account_limit',
    );
    expect(notSponsoredError(noBundler)).toBeNull();
    expect(notSponsoredError({ ...noBundler, userOperations: true })).toBeNull();
    expect(notSponsoredError(sponsored)).toBeNull();
    expect(notSponsoredError(null)).toBeNull();
  });
});

describe('the balance check with a sponsored fee', () => {
  it('counts no fee: 75 USDC and no ETH can send 75 USDC', () => {
    const funds = { native: 0n, usdc: 75n * USDC };
    const operator = chooseFeePayment('embedded', sponsored);
    expect(feeToCover(operator, FEE)).toBe(0n);
    expect(hasEnoughFunds('usdc', 75n * USDC, feeToCover(operator, FEE), funds)).toBe(true);
    expect(
      findShortfall({
        chain: base,
        asset: 'usdc',
        amount: 75n * USDC,
        funds,
        payment: operator,
        selfPaidFee: FEE,
      }),
    ).toBeNull();
    // Paid by the wallet, the same send is short of the fee.
    expect(hasEnoughFunds('usdc', 75n * USDC, feeToCover({ by: 'wallet' }, FEE), funds)).toBe(false);
  });

  it('still needs the amount itself', () => {
    const funds = { native: 0n, usdc: 75n * USDC };
    const shortfall = findShortfall({
      chain: base,
      asset: 'usdc',
      amount: 76n * USDC,
      funds,
      payment: { by: 'operator', operatorName: 'Dial Test' },
      selfPaidFee: FEE,
    });
    expect(shortfall).toEqual({
      message: 'This wallet has 75 USDC on Base, less than the 76 USDC to send.',
      add: 'USDC',
      sendLess: true,
    });
  });
});

describe('findShortfall says what is missing, and never "send less" where that cannot help', () => {
  it('USDC covered, no ETH for a self-paid fee: the fee asset, on that network, and nothing about sending less', () => {
    const shortfall = findShortfall({
      chain: base,
      asset: 'usdc',
      amount: 10n * USDC,
      funds: { native: 0n, usdc: 75n * USDC },
      payment: { by: 'wallet' },
      selfPaidFee: FEE,
    });
    expect(shortfall).toEqual({
      message: 'Sending USDC on Base needs about 0.00002 ETH for the network fee, and this wallet has none.',
      add: 'ETH',
      sendLess: false,
    });
    expect(shortfall?.message).not.toMatch(/send less/i);
  });

  it('USDC covered, too little ETH: says how little, in the native currency of the chain', () => {
    const shortfall = findShortfall({
      chain: polygon,
      asset: 'usdc',
      amount: 10n * USDC,
      funds: { native: 5_000_000_000_000n, usdc: 75n * USDC },
      payment: { by: 'wallet' },
      selfPaidFee: FEE,
    });
    expect(shortfall).toEqual({
      message:
        'Sending USDC on Polygon needs about 0.00002 POL for the network fee, and this wallet has only 0.000005 POL.',
      add: 'POL',
      sendLess: false,
    });
  });

  it('ETH sent, the fee on top not covered: sending less helps, and says how much at most', () => {
    const shortfall = findShortfall({
      chain: base,
      asset: 'native',
      amount: ETH,
      funds: { native: ETH, usdc: undefined },
      payment: { by: 'wallet' },
      selfPaidFee: FEE,
    });
    expect(shortfall).toEqual({
      message:
        'Sending 1 ETH also needs up to 0.00002 ETH for the network fee. Send at most 0.99998 ETH, or add ETH.',
      add: 'ETH',
      sendLess: true,
    });
  });

  it('ETH sent, more than the balance: says what there is', () => {
    expect(
      findShortfall({
        chain: base,
        asset: 'native',
        amount: 2n * ETH,
        funds: { native: ETH, usdc: 0n },
        payment: { by: 'wallet' },
        selfPaidFee: FEE,
      }),
    ).toEqual({
      message: 'This wallet has 1 ETH on Base, less than the 2 ETH to send.',
      add: 'ETH',
      sendLess: true,
    });
  });

  it('USDC short with none at all: nothing to send less of', () => {
    expect(
      findShortfall({
        chain: base,
        asset: 'usdc',
        amount: USDC,
        funds: { native: ETH, usdc: 0n },
        payment: { by: 'wallet' },
        selfPaidFee: FEE,
      }),
    ).toMatchObject({ add: 'USDC', sendLess: false });
  });

  it('covered: null', () => {
    expect(
      findShortfall({
        chain: base,
        asset: 'usdc',
        amount: USDC,
        funds: { native: FEE, usdc: USDC },
        payment: { by: 'wallet' },
        selfPaidFee: FEE,
      }),
    ).toBeNull();
  });

  it("reaches the person as the catalogue's insufficient_balance with its exact words", () => {
    const error = shortfallError({
      message: 'Sending USDC on Base needs about 0.00002 ETH…',
      add: 'ETH',
      sendLess: false,
    });
    expect(error.code).toBe('insufficient_balance');
    expect(error.message).toBe('Sending USDC on Base needs about 0.00002 ETH…');
  });
});
