import { DialError } from '@dial/core';
import { describe, expect, it } from 'vitest';
import { readSessionAccount } from './sessionAccount';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('readSessionAccount', () => {
  it('takes the first proposed chain the wallet approved, and every approved one in the proposal’s order', () => {
    const namespaces = {
      eip155: {
        accounts: [`eip155:8453:${ADDRESS.toLowerCase()}`, `eip155:1:${ADDRESS}`, `eip155:137:${ADDRESS}`],
        methods: ['personal_sign'],
      },
    };
    expect(readSessionAccount(namespaces, [137, 42161, 8453])).toEqual({
      address: ADDRESS,
      chainId: 137,
      chainIds: [137, 8453],
      methods: ['personal_sign'],
    });
  });

  it('refuses a session with no account on the proposed chains (unsupported_chain)', () => {
    const namespaces = { eip155: { accounts: [`eip155:1:${ADDRESS}`], methods: ['personal_sign'] } };
    expect(() => readSessionAccount(namespaces, [8453])).toThrow(DialError);
    expect(() => readSessionAccount(namespaces, [8453])).toThrow(
      expect.objectContaining({ code: 'unsupported_chain' }),
    );
    expect(() => readSessionAccount({}, [8453])).toThrow(
      expect.objectContaining({ code: 'unsupported_chain' }),
    );
  });

  it('refuses two addresses, or one that is not an address (invalid_data)', () => {
    const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const two = { eip155: { accounts: [`eip155:8453:${ADDRESS}`, `eip155:137:${other}`], methods: [] } };
    expect(() => readSessionAccount(two, [8453, 137])).toThrow(
      expect.objectContaining({ code: 'invalid_data' }),
    );
    const bad = { eip155: { accounts: ['eip155:8453:0x1234'], methods: [] } };
    expect(() => readSessionAccount(bad, [8453])).toThrow(expect.objectContaining({ code: 'invalid_data' }));
  });
});
