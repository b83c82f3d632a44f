import { createLocalChain, SUPPORTED_CHAINS } from '@dial/core';
import { describe, expect, it } from 'vitest';
import { explorerName, explorerTxUrl } from './explorerLink';

const HASH = `0x${'ab'.repeat(32)}` as const;

describe('explorerTxUrl', () => {
  it("links to the transaction on the chain's default explorer", () => {
    const base = SUPPORTED_CHAINS.find((chain) => chain.id === 8453)!;
    expect(explorerTxUrl(base, HASH)).toBe(`https://basescan.org/tx/${HASH}`);
    expect(explorerName(base)).toBe('Basescan');
    const polygon = SUPPORTED_CHAINS.find((chain) => chain.id === 137)!;
    expect(explorerTxUrl(polygon, HASH)).toMatch(/^https:\/\/[^/]+\/tx\/0xabab/);
  });

  it('drops a trailing slash of the explorer URL', () => {
    const base = SUPPORTED_CHAINS.find((chain) => chain.id === 8453)!;
    const chain = { ...base, blockExplorers: { default: { name: 'X', url: 'https://x.example/' } } };
    expect(explorerTxUrl(chain, HASH)).toBe(`https://x.example/tx/${HASH}`);
  });

  it('gives nothing for the local chain, which has no explorer', () => {
    const local = createLocalChain('http://localhost:8080/api/dev/chain');
    expect(explorerTxUrl(local, HASH)).toBeUndefined();
    expect(explorerName(local)).toBe('block explorer');
  });
});
