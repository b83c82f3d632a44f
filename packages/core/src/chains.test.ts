import { arbitrum, base, baseSepolia, polygon, zora } from 'viem/chains';
import { describe, expect, it } from 'vitest';
import {
  createLocalChain,
  explorerUrl,
  findChain,
  getChains,
  LOCAL_CHAIN_ID,
  SUPPORTED_CHAINS,
} from './chains.js';
import { DialError } from './errors.js';

describe('SUPPORTED_CHAINS', () => {
  it('lists Polygon, Arbitrum One, Base, Base Sepolia and Zora in that order', () => {
    expect(SUPPORTED_CHAINS.map((chain) => [chain.id, chain.name])).toEqual([
      [137, 'Polygon'],
      [42161, 'Arbitrum One'],
      [8453, 'Base'],
      [84532, 'Base Sepolia'],
      [7777777, 'Zora'],
    ]);
  });

  it("holds viem's own chain objects", () => {
    expect(SUPPORTED_CHAINS[0]).toBe(polygon);
    expect(SUPPORTED_CHAINS[1]).toBe(arbitrum);
    expect(SUPPORTED_CHAINS[2]).toBe(base);
    expect(SUPPORTED_CHAINS[3]).toBe(baseSepolia);
    expect(SUPPORTED_CHAINS[4]).toBe(zora);
  });

  it('gives every chain an 18-decimal native currency, an https RPC URL and an explorer', () => {
    for (const chain of SUPPORTED_CHAINS) {
      expect(chain.nativeCurrency.decimals, chain.name).toBe(18);
      expect(chain.nativeCurrency.symbol, chain.name).toMatch(/^[A-Z]+$/);
      expect(chain.rpcUrls.default.http[0], chain.name).toMatch(/^https:\/\//);
      expect(explorerUrl(chain), chain.name).toMatch(/^https:\/\//);
    }
  });

  it('marks only Base Sepolia as a testnet', () => {
    expect(SUPPORTED_CHAINS.filter((chain) => chain.testnet === true).map((chain) => chain.id)).toEqual([
      84532,
    ]);
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(SUPPORTED_CHAINS)).toBe(true);
  });
});

describe('createLocalChain', () => {
  it('describes chain 31337 at the given RPC URL', () => {
    const chain = createLocalChain('http://127.0.0.1:8545');
    expect(LOCAL_CHAIN_ID).toBe(31337);
    expect(chain.id).toBe(LOCAL_CHAIN_ID);
    expect(chain.name).toBe('Local');
    expect(chain.nativeCurrency).toEqual({ name: 'Ether', symbol: 'ETH', decimals: 18 });
    expect(chain.rpcUrls.default.http).toEqual(['http://127.0.0.1:8545']);
    expect(chain.blockExplorers).toBeUndefined();
    expect(chain.testnet).toBe(true);
  });

  it('accepts an https URL with a path', () => {
    expect(createLocalChain('https://rpc.example.test/dev').rpcUrls.default.http).toEqual([
      'https://rpc.example.test/dev',
    ]);
  });

  it.each([
    ['not a URL', 'localhost:8545'],
    ['an empty string', ''],
    ['a WebSocket URL', 'ws://127.0.0.1:8545'],
  ])('refuses %s with invalid_data', (_label, url) => {
    expect(() => createLocalChain(url)).toThrow(DialError);
    expect(() => createLocalChain(url)).toThrow(expect.objectContaining({ code: 'invalid_data' }));
  });
});

describe('getChains', () => {
  it('gives the supported chains without a local RPC URL', () => {
    expect(getChains()).toBe(SUPPORTED_CHAINS);
    expect(getChains({})).toBe(SUPPORTED_CHAINS);
    expect(getChains({ localRpcUrl: null })).toBe(SUPPORTED_CHAINS);
  });

  it('adds the local chain last when a local RPC URL is given', () => {
    const chains = getChains({ localRpcUrl: 'http://127.0.0.1:8545' });
    expect(chains.map((chain) => chain.id)).toEqual([137, 42161, 8453, 84532, 7777777, 31337]);
    expect(chains.at(-1)?.rpcUrls.default.http).toEqual(['http://127.0.0.1:8545']);
    expect(chains[2]).toBe(base);
  });

  it('leaves SUPPORTED_CHAINS as it was', () => {
    getChains({ localRpcUrl: 'http://127.0.0.1:8545' });
    getChains({ rpcUrls: { 8453: 'https://base.example.test/v1/KEY' } });
    expect(SUPPORTED_CHAINS).toHaveLength(5);
    expect(base.rpcUrls.default.http).toEqual(['https://mainnet.base.org']);
  });

  it('puts a chain on its RPC URL override and keeps the others as they are', () => {
    const chains = getChains({
      rpcUrls: { 8453: 'https://base.example.test/v1/KEY' },
      localRpcUrl: 'http://127.0.0.1:8545',
    });
    expect(chains.map((chain) => chain.id)).toEqual([137, 42161, 8453, 84532, 7777777, 31337]);
    const overridden = chains[2]!;
    expect(overridden).not.toBe(base);
    expect(overridden.rpcUrls.default.http).toEqual(['https://base.example.test/v1/KEY']);
    expect(overridden).toMatchObject({
      id: 8453,
      name: 'Base',
      nativeCurrency: base.nativeCurrency,
      blockExplorers: base.blockExplorers,
      formatters: base.formatters,
    });
    expect(chains[0]).toBe(polygon);
    expect(chains[3]).toBe(baseSepolia);
    expect(chains.at(-1)?.rpcUrls.default.http).toEqual(['http://127.0.0.1:8545']);
    expect(Object.isFrozen(chains)).toBe(true);
  });

  it('gives SUPPORTED_CHAINS itself when no override names a supported chain', () => {
    expect(getChains({ rpcUrls: {} })).toBe(SUPPORTED_CHAINS);
    expect(getChains({ rpcUrls: null })).toBe(SUPPORTED_CHAINS);
    expect(getChains({ rpcUrls: { 1: 'https://eth.example.test', 31337: 'http://127.0.0.1:9' } })).toBe(
      SUPPORTED_CHAINS,
    );
  });

  it.each(['polygon.example.test', 'wss://polygon.example.test'])(
    'refuses the RPC URL override %j with invalid_data',
    (url) => {
      expect(() => getChains({ rpcUrls: { 137: url } })).toThrow(
        expect.objectContaining({ code: 'invalid_data' }),
      );
    },
  );
});

describe('findChain', () => {
  it('finds a chain by id', () => {
    expect(findChain(SUPPORTED_CHAINS, 8453)).toBe(base);
    expect(findChain(getChains({ localRpcUrl: 'http://127.0.0.1:8545' }), 31337)?.name).toBe('Local');
  });

  it('gives undefined for an id it does not hold', () => {
    expect(findChain(SUPPORTED_CHAINS, 1)).toBeUndefined();
    expect(findChain(SUPPORTED_CHAINS, 31337)).toBeUndefined();
  });
});

describe('explorerUrl', () => {
  it("gives the chain's default explorer", () => {
    expect(explorerUrl(base)).toBe('https://basescan.org');
    expect(explorerUrl(polygon)).toBe('https://polygonscan.com');
  });

  it('gives undefined for a chain without one', () => {
    expect(explorerUrl(createLocalChain('http://127.0.0.1:8545'))).toBeUndefined();
  });
});
