import { createLocalChain, SUPPORTED_CHAINS } from '@dial/core';
import { describe, expect, it } from 'vitest';
import type { Transfer } from './activityApi';
import { describeTransfer } from './describeTransfer';

const chains = [...SUPPORTED_CHAINS, createLocalChain('http://localhost/api/dev/chain')];
const base: Transfer = {
  id: '00000000-0000-4000-8000-000000000000',
  direction: 'sent',
  chainId: 31337,
  txHash: `0x${'12'.repeat(32)}`,
  from: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  asset: 'usdc',
  amount: '5000000',
  status: 'confirmed',
  createdAt: '2026-11-23T14:00:00.000Z',
  counterparty: { phone: '*3456' },
};

describe('describeTransfer', () => {
  it('names the other side by masked number, the amount with its decimals, and the network', () => {
    expect(describeTransfer(base, chains)).toEqual({
      direction: 'Sent',
      counterparty: 'To *3456',
      amount: '5 USDC',
      network: 'Local',
    });
  });

  it('falls back to the shortened address: the recipient of a sent one, the sender of a received one', () => {
    const noPhone = { ...base, counterparty: { phone: null } };
    expect(describeTransfer(noPhone, chains).counterparty).toBe('To 0x7099…79C8');
    expect(describeTransfer({ ...noPhone, direction: 'received' }, chains)).toMatchObject({
      direction: 'Received',
      counterparty: 'From 0x3C44…93BC',
    });
  });

  it("uses the chain's native currency, and names an unknown chain by its id", () => {
    const polygon = { ...base, chainId: 137, asset: 'native' as const, amount: '1500000000000000000' };
    expect(describeTransfer(polygon, chains)).toMatchObject({ amount: '1.5 POL', network: 'Polygon' });
    expect(describeTransfer({ ...base, chainId: 999 }, chains).network).toBe('Chain 999');
  });
});
