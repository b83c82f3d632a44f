import { createLocalChain, SUPPORTED_CHAINS } from '@dial/core';
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from './activityApi';
import { describeEntry, explorerLink } from './describeEntry';

const chains = [...SUPPORTED_CHAINS, createLocalChain('http://localhost/api/dev/chain')];
const base: ActivityEntry = {
  id: '00000000-0000-4000-8000-000000000000',
  source: 'dial',
  direction: 'sent',
  chainId: 31337,
  txHash: `0x${'12'.repeat(32)}`,
  blockNumber: null,
  from: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  asset: 'usdc',
  amount: '5000000',
  status: 'confirmed',
  createdAt: '2026-11-23T14:00:00.000Z',
  counterparty: { phone: '*3456' },
};

describe('describeEntry', () => {
  it('names the other side of a Dial transfer by masked number and address, the amount with its decimals, and the network', () => {
    expect(describeEntry(base, chains)).toEqual({
      direction: 'Sent',
      counterparty: 'To *3456 · 0x7099…79C8',
      amount: '5 USDC',
      network: 'Local',
    });
    expect(describeEntry({ ...base, direction: 'received' }, chains)).toMatchObject({
      direction: 'Received',
      counterparty: 'From *3456 · 0x3C44…93BC',
    });
  });

  it('names only the address without a number: the recipient of a sent one, the sender of a received one', () => {
    const noPhone = { ...base, counterparty: { phone: null } };
    expect(describeEntry(noPhone, chains).counterparty).toBe('To 0x7099…79C8');
    expect(describeEntry({ ...noPhone, direction: 'received' }, chains)).toMatchObject({
      direction: 'Received',
      counterparty: 'From 0x3C44…93BC',
    });
  });

  it('labels each kind of credit: test funds, the on-ramp, outside money, a balance change and its block', () => {
    const credit = {
      ...base,
      direction: 'received' as const,
      counterparty: { phone: null },
      blockNumber: 42,
    };
    expect(describeEntry({ ...credit, source: 'faucet' }, chains)).toMatchObject({
      direction: 'Test funds',
      counterparty: 'From 0x3C44…93BC',
    });
    expect(describeEntry({ ...credit, source: 'onramp', from: null }, chains)).toMatchObject({
      direction: 'Bought or deposited',
      counterparty: '',
    });
    expect(describeEntry({ ...credit, source: 'outside' }, chains).direction).toBe('Received');
    expect(
      describeEntry(
        { ...credit, source: 'balance', txHash: null, from: null, asset: 'native', amount: '10' },
        chains,
      ),
    ).toMatchObject({
      direction: 'Balance increase',
      counterparty: 'In block 42',
      amount: '0.00000000000000001 ETH',
    });
  });

  it("uses the chain's native currency, and names an unknown chain by its id", () => {
    const polygon = { ...base, chainId: 137, asset: 'native' as const, amount: '1500000000000000000' };
    expect(describeEntry(polygon, chains)).toMatchObject({ amount: '1.5 POL', network: 'Polygon' });
    expect(describeEntry({ ...base, chainId: 999 }, chains).network).toBe('Chain 999');
  });
});

describe('explorerLink', () => {
  it("links a transaction to its chain's explorer, and gives nothing on the local chain", () => {
    const baseChain = chains.find((chain) => chain.id === 8453)!;
    const hash = `0x${'ab'.repeat(32)}` as const;
    expect(explorerLink(baseChain, hash)).toEqual({
      url: `https://basescan.org/tx/${hash}`,
      name: 'Basescan',
    });
    expect(explorerLink(chains.find((chain) => chain.id === 31337)!, hash)).toBeUndefined();
  });
});
