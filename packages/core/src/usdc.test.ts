import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { LOCAL_CHAIN_ID, SUPPORTED_CHAINS } from './chains.js';
import { getUsdcAddress, USDC_ADDRESSES, USDC_DECIMALS } from './usdc.js';

const LOCAL_USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

describe('USDC_ADDRESSES', () => {
  it("lists Circle's native USDC on Polygon, Arbitrum One, Base and Base Sepolia, and nothing else", () => {
    expect(USDC_ADDRESSES).toEqual({
      137: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
      42161: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
      8453: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      84532: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    });
  });

  it('writes every address in its EIP-55 checksummed form', () => {
    for (const address of Object.values(USDC_ADDRESSES)) {
      expect(address).toBe(getAddress(address as string));
    }
  });

  it('lists only supported chains, and has no USDC for Zora', () => {
    const supported = SUPPORTED_CHAINS.map((chain) => chain.id);
    for (const id of Object.keys(USDC_ADDRESSES)) expect(supported).toContain(Number(id));
    expect(USDC_ADDRESSES[7777777]).toBeUndefined();
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(USDC_ADDRESSES)).toBe(true);
  });
});

describe('USDC_DECIMALS', () => {
  it('is 6', () => {
    expect(USDC_DECIMALS).toBe(6);
  });
});

describe('getUsdcAddress', () => {
  it("gives Circle's address on a chain that has one", () => {
    expect(getUsdcAddress(8453)).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
    expect(getUsdcAddress(137, LOCAL_USDC)).toBe('0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359');
  });

  it('gives undefined on Zora and on chains it does not know', () => {
    expect(getUsdcAddress(7777777)).toBeUndefined();
    expect(getUsdcAddress(1)).toBeUndefined();
  });

  it("gives the local chain's test USDC on 31337, and undefined without one", () => {
    expect(getUsdcAddress(LOCAL_CHAIN_ID, LOCAL_USDC)).toBe(LOCAL_USDC);
    expect(getUsdcAddress(LOCAL_CHAIN_ID, null)).toBeUndefined();
    expect(getUsdcAddress(LOCAL_CHAIN_ID)).toBeUndefined();
  });
});
