import { type Hex, numberToHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeCallsId, encodeCallsId } from './callsId.js';

describe('batch ids', () => {
  it('read back into the chain and the user operation, and nothing else reads as one', () => {
    const userOperationHash: Hex = `0x${'12'.repeat(32)}`;
    const id = encodeCallsId({ chainId: 31337, userOperationHash });
    expect(id).toBe(`${userOperationHash}${numberToHex(31337, { size: 32 }).slice(2)}`);
    expect(decodeCallsId(id)).toEqual({ chainId: 31337, userOperationHash });
    expect(decodeCallsId(userOperationHash)).toBeUndefined();
    expect(decodeCallsId(`${userOperationHash}${'00'.repeat(32)}`)).toBeUndefined();
    expect(decodeCallsId('order-1')).toBeUndefined();
  });
});
