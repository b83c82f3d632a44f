import { accountChangeMessage } from '@dial/core';
import { type Hex, hexToString } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DiscoveredWallet, WalletProvider } from '../connect/walletProvider';
import { proveAccountChange } from './proveAccountChange';

/**
 * A wallet-only account (no embedded wallet: `GET /api/wallet` answers 404): its proof is the signature of
 * one of its trusted wallets, asked of the wallet app that holds it. The server's two answers are stubbed
 * (the real routes are exercised by proveAccountChange.test.ts); what is checked is what the wallet is asked.
 */
const USER = '6f1c1c1e-0000-4000-8000-00000000000a';
const CHALLENGE = 'c'.repeat(43);
const owner = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());

let requests: string[] = [];
beforeEach(() => {
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const route = `${init?.method ?? 'GET'} ${String(input)}`;
      requests.push(route);
      if (route === 'POST /api/account/proof') {
        const body = {
          challenge: CHALLENGE,
          expiresAt: '2030-01-01T12:05:00.000Z',
          signers: [other.address, owner.address],
        };
        return Response.json(body, { status: 201 });
      }
      if (route === 'GET /api/wallet') {
        return Response.json({ error: { code: 'wallet_not_found', message: 'No wallet.' } }, { status: 404 });
      }
      return Response.json({ error: { code: 'not_found', message: 'Not found.' } }, { status: 404 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The owner's wallet app, answering `personal_sign` with its key (or refusing with 4001). */
function ownerWallet(refuse = false) {
  const calls: { method: string; params: unknown }[] = [];
  const provider: WalletProvider = {
    async request({ method, params }) {
      calls.push({ method, params });
      if (refuse) throw Object.assign(new Error('User rejected'), { code: 4001 });
      if (method !== 'personal_sign') throw Object.assign(new Error('Unsupported'), { code: 4200 });
      const [message] = params as [Hex, string];
      return owner.signMessage({ message: { raw: message } });
    },
  };
  const wallet: DiscoveredWallet = {
    info: { uuid: 'u', name: 'Test Wallet', icon: null, rdns: 'test' },
    provider,
  };
  return { calls, wallet };
}

describe('proveAccountChange for a wallet-only account', () => {
  it('asks the wallet app holding one of the trusted wallets to sign exactly the change', async () => {
    const { calls, wallet } = ownerWallet();
    const findWallet = vi.fn(async (address: string) => (address === owner.address ? wallet : null));
    const attempt = await proveAccountChange(USER, { action: 'remove-method', id: 'm-1' }, { findWallet });

    expect(findWallet.mock.calls.map(([address]) => address)).toEqual([other.address, owner.address]);
    const message = accountChangeMessage({
      action: 'remove-method',
      target: 'm-1',
      challenge: CHALLENGE,
      userId: USER,
      address: owner.address,
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('personal_sign');
    const [signed, address] = calls[0]!.params as [Hex, string];
    expect(hexToString(signed)).toBe(message);
    expect(address).toBe(owner.address);
    expect(attempt).toEqual({
      proof: {
        challenge: CHALLENGE,
        address: owner.address,
        signature: await owner.signMessage({ message }),
      },
    });
    expect(requests.sort()).toEqual(['GET /api/wallet', 'POST /api/account/proof']);
  });

  it('gives no proof when no wallet app of this browser holds a trusted wallet', async () => {
    const attempt = await proveAccountChange(
      USER,
      { action: 'secure-account' },
      { findWallet: async () => null },
    );
    expect(attempt).toEqual({ proof: null, reason: 'wallet-not-connected' });
  });

  it('rejects with user_rejected when the person declines in the wallet', async () => {
    const { wallet } = ownerWallet(true);
    const refused = await proveAccountChange(
      USER,
      { action: 'secure-account' },
      { findWallet: async () => wallet },
    ).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'user_rejected' });
  });
});
