import { createEmbeddedProvider, DialError, isDialError } from '@dial/core';
import {
  createTestApp,
  useTestDatabase as databaseForEachTest,
  ORIGIN,
  type TestApp,
} from '@dial/server/testing';
import type { LightMyRequestResponse } from 'fastify';
import { type Chain, hexToString } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { parseSiweMessage } from 'viem/siwe';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signInWithWallet, type WalletSignInStep } from './signInWithWallet';
import type { WalletProvider } from './walletProvider';

const db = databaseForEachTest('sqlite');
let server: TestApp;
let routes: string[];

/** The real server behind `fetch`, as this browser reaches it: same origin, with the cookies it set. */
beforeEach(async () => {
  server = await createTestApp(db());
  // The message's issued-at comes from this browser's clock: the server's test clock is its time.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(server.clock.now());
  const cookies = new Map<string, string>();
  routes = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof globalThis.fetch>(async (input, init) => {
      const method = (init?.method ?? 'GET') as 'GET';
      const url = String(input);
      routes.push(`${method} ${url}`);
      const response: LightMyRequestResponse = await server.app.inject({
        method,
        url,
        headers: {
          origin: ORIGIN,
          ...(cookies.size > 0 ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
          ...(typeof init?.body === 'string' ? { 'content-type': 'application/json' } : {}),
        },
        ...(typeof init?.body === 'string' ? { payload: init.body } : {}),
      });
      for (const cookie of response.cookies) cookies.set(cookie.name, cookie.value);
      return new Response(response.body === '' ? null : response.body, { status: response.statusCode });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A wallet app holding a fresh key on `chain` (core's EIP-1193 provider), recording what it is asked. */
function walletApp(options: { chain?: Chain; change?: (method: string) => unknown } = {}) {
  const account = privateKeyToAccount(generatePrivateKey());
  const chain = options.chain ?? base;
  const provider = createEmbeddedProvider({
    address: account.address,
    chains: [chain],
    chainId: chain.id,
    getAccount: async () => account,
    transport: () => {
      throw new Error('the wallet needs no chain to sign in');
    },
  });
  const calls: { method: string; params: unknown }[] = [];
  const wallet: WalletProvider = {
    async request({ method, params }) {
      calls.push({ method, params });
      const changed = options.change?.(method);
      if (changed instanceof Error) throw changed;
      if (changed !== undefined) return changed;
      return provider.request({ method, params } as Parameters<typeof provider.request>[0]);
    },
  };
  return { wallet, calls, address: account.address };
}

describe('signInWithWallet', () => {
  it('signs up the wallet’s address: the message carries what the server gave, the account’s wallet is external', async () => {
    const app = walletApp();
    const steps: WalletSignInStep[] = [];

    const { verified, address } = await signInWithWallet(app.wallet, (step) => steps.push(step));

    expect(steps).toEqual(['connecting', 'signing', 'verifying']);
    expect(address).toBe(app.address);
    expect(verified.isNewUser).toBe(true);
    expect(verified.user.wallet).toEqual({ address: app.address, kind: 'external' });
    expect(app.calls.map((call) => call.method)).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'personal_sign',
    ]);
    const message = parseSiweMessage(hexToString((app.calls[2]!.params as [`0x${string}`])[0]));
    expect(message).toMatchObject({
      address: app.address,
      chainId: base.id,
      domain: new URL(ORIGIN).host,
      uri: ORIGIN,
      version: '1',
    });
    expect(message.issuedAt?.getTime()).toBe(server.clock.now().getTime());
    expect(routes).toEqual(['POST /api/auth/siwe/nonce', 'POST /api/auth/siwe/verify']);
    // Signed in: the session cookie works.
    expect((await fetch('/api/me')).status).toBe(200);
  });

  it('names the server’s first chain when the wallet is on one the server does not accept', async () => {
    const unsupported = { ...base, id: 999_999, name: 'Elsewhere' } as Chain;
    const app = walletApp({ chain: unsupported });

    await signInWithWallet(app.wallet, () => undefined);

    const nonce = (await server.post('/api/auth/siwe/nonce')).json<{ chainIds: number[] }>();
    const message = parseSiweMessage(hexToString((app.calls[2]!.params as [`0x${string}`])[0]));
    expect(message.chainId).toBe(nonce.chainIds[0]);
  });

  it('stops with user_rejected, asking the server nothing more, when the person refuses to sign', async () => {
    const app = walletApp({
      change: (method) =>
        method === 'personal_sign' ? Object.assign(new Error('User rejected'), { code: 4001 }) : undefined,
    });

    const error = await signInWithWallet(app.wallet, () => undefined).catch((caught: unknown) => caught);

    expect(isDialError(error, 'user_rejected')).toBe(true);
    expect(routes).toEqual(['POST /api/auth/siwe/nonce']);
  });

  it('uses a nonce fetched before connecting (WalletConnect) and gives the server’s refusal of its replay as it is', async () => {
    const app = walletApp();
    const nonce = await (await fetch('/api/auth/siwe/nonce', { method: 'POST', body: '{}' })).json();
    const known = { address: app.address, chainId: base.id, nonce };
    routes.length = 0;

    await signInWithWallet(app.wallet, () => undefined, known);
    const replay = await signInWithWallet(app.wallet, () => undefined, known).catch(
      (caught: unknown) => caught,
    );

    // Neither asked the wallet for its account or chain, nor the server for another nonce.
    expect(app.calls.map((call) => call.method)).toEqual(['personal_sign', 'personal_sign']);
    expect(routes).toEqual(['POST /api/auth/siwe/verify', 'POST /api/auth/siwe/verify']);
    expect(replay).toBeInstanceOf(DialError);
    expect((replay as DialError).code).toBe('siwe_nonce_used');
  });
});
