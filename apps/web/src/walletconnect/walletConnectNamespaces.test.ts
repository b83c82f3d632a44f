import { describe, expect, it } from 'vitest';
import { walletConnectNamespaces } from './walletConnectNamespaces';

describe('walletConnectNamespaces', () => {
  it('proposes eip155 on each chain once, with the sign-in and sending methods', () => {
    expect(walletConnectNamespaces([137, 8453, 137])).toEqual({
      eip155: {
        chains: ['eip155:137', 'eip155:8453'],
        methods: ['personal_sign', 'eth_sendTransaction', 'wallet_sendTransaction'],
        events: ['accountsChanged', 'chainChanged'],
      },
    });
  });

  it.each([[[]], [[0]], [[1.5]], [[-1]]])('refuses %j as chain ids (invalid_data)', (chainIds) => {
    expect(() => walletConnectNamespaces(chainIds)).toThrow(
      expect.objectContaining({ code: 'invalid_data' }),
    );
  });
});
