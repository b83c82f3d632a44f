import { DialError } from '@dial/core';
import { vi } from 'vitest';
import type { StoredWallet } from '../../api/types';

/**
 * For unit tests: a stubbed `fetch` answering GET /api/wallet and PUT /api/wallet/shares from one wallet
 * held in memory, with the server's rule for rotations (taken only from the generation it holds, +1).
 * The browser tests run the real server; this only lets the web app's decisions be tested under Node.
 */
export function walletServer(initial: StoredWallet) {
  const state = { wallet: { ...initial }, requireCode: false, puts: 0 };
  const reply = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
    const route = `${init?.method ?? 'GET'} ${String(input)}`;
    if (route === 'GET /api/wallet') return reply(200, state.wallet);
    if (route === 'PUT /api/wallet/shares') {
      state.puts += 1;
      if (state.requireCode) return reply(403, new DialError('reauthentication_required').toBody());
      const body = JSON.parse(String(init?.body)) as {
        expectedGeneration: number;
        address: string;
        authShare: string;
        recovery: { method: 'password' | 'passkey' };
      };
      if (body.address !== state.wallet.address) return reply(400, new DialError('invalid_data').toBody());
      if (body.expectedGeneration !== state.wallet.generation) {
        return reply(409, new DialError('stale_share_generation').toBody());
      }
      state.wallet = {
        ...state.wallet,
        authShare: body.authShare,
        generation: body.expectedGeneration + 1,
        recovery: { method: body.recovery.method, createdAt: new Date().toISOString() },
      };
      return reply(200, { address: state.wallet.address, generation: state.wallet.generation });
    }
    throw new Error(`unexpected request ${route}`);
  });
  vi.stubGlobal('fetch', fetch);
  return { state, fetch };
}
