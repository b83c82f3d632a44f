import { decodeFunctionData, erc20Abi } from 'viem';
import { describe, expect, it } from 'vitest';
import { transferCall } from './transferCall';

const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

describe('transferCall', () => {
  it('sends the native currency straight to the recipient', () => {
    expect(transferCall('native', TO, 5n, USDC)).toEqual({ to: TO, value: 5n });
  });

  it('calls transfer(recipient, amount) on the USDC contract, with no value', () => {
    const call = transferCall('usdc', TO, 5_000_000n, USDC);
    expect(call.to).toBe(USDC);
    expect(call.value).toBe(0n);
    expect(call.data?.slice(0, 10)).toBe('0xa9059cbb');
    expect(decodeFunctionData({ abi: erc20Abi, data: call.data! })).toEqual({
      functionName: 'transfer',
      args: [TO, 5_000_000n],
    });
  });

  it('refuses USDC on a chain without it', () => {
    expect(() => transferCall('usdc', TO, 1n, undefined)).toThrow(/no USDC/);
  });
});
