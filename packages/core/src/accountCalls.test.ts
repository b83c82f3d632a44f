import { encodeFunctionData, getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeAccountCalls, SIMPLE_7702_ACCOUNT_CALLS_ABI } from './accountCalls.js';

const TO = getAddress('0x00000000000000000000000000000000000000b0');
const OTHER = getAddress('0x00000000000000000000000000000000000000c0');

describe('decodeAccountCalls', () => {
  it('reads execute as one call and executeBatch as its calls, in order', () => {
    expect(
      decodeAccountCalls(
        encodeFunctionData({
          abi: SIMPLE_7702_ACCOUNT_CALLS_ABI,
          functionName: 'execute',
          args: [TO, 5n, '0x12'],
        }),
      ),
    ).toEqual([{ to: TO, value: 5n, data: '0x12' }]);
    expect(
      decodeAccountCalls(
        encodeFunctionData({
          abi: SIMPLE_7702_ACCOUNT_CALLS_ABI,
          functionName: 'executeBatch',
          args: [
            [
              { target: TO, value: 1n, data: '0x' },
              { target: OTHER, value: 0n, data: '0xa9059cbb' },
            ],
          ],
        }),
      ),
    ).toEqual([
      { to: TO, value: 1n, data: '0x' },
      { to: OTHER, value: 0n, data: '0xa9059cbb' },
    ]);
  });

  it('gives undefined for other call data (another function, garbage, nothing)', () => {
    expect(decodeAccountCalls('0xa9059cbb0000')).toBeUndefined();
    expect(decodeAccountCalls('0x')).toBeUndefined();
    expect(decodeAccountCalls('0xb61d27f6')).toBeUndefined();
  });
});
