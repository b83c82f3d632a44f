import { DialError, decodeShare, type RecoveryShareRecord, walletProofMessage } from '@dial/core';
import { recoverMessageAddress } from 'viem';
import { vi } from 'vitest';
import type { StoredWallet } from '../../api/types';

/**
 * For unit tests: a stubbed `fetch` answering GET /api/wallet, POST /api/wallet/challenge and PUT
 * /api/wallet/shares from one wallet held in memory, with the server's rules for rotations: taken only from
 * the generation it holds (+1), and only with the wallet key's signature over a challenge it issued and the
 * exact shares sent.
 * The browser tests run the real server; this only lets the web app's decisions be tested under Node.
 */
export function walletServer(initial: StoredWallet, userId = 'user-1') {
  const state = { wallet: { ...initial }, requireCode: false, puts: 0, challenges: new Set<string>() };
  const reply = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
    const route = `${init?.method ?? 'GET'} ${String(input)}`;
    if (route === 'GET /api/wallet') return reply(200, state.wallet);
    if (route === 'POST /api/wallet/challenge') {
      const challenge = `challenge-${state.challenges.size + 1}`;
      state.challenges.add(challenge);
      return reply(201, { challenge, expiresAt: new Date(Date.now() + 300_000).toISOString() });
    }
    if (route === 'PUT /api/wallet/shares') {
      state.puts += 1;
      if (state.requireCode) return reply(403, new DialError('reauthentication_required').toBody());
      const body = JSON.parse(String(init?.body)) as {
        expectedGeneration: number;
        address: string;
        authShare: string;
        recovery: RecoveryShareRecord & { method: 'password' | 'passkey' };
        proof: { challenge: string; signature: `0x${string}` };
      };
      if (body.address !== state.wallet.address) return reply(400, new DialError('invalid_data').toBody());
      if (!state.challenges.delete(body.proof.challenge)) {
        return reply(400, new DialError('wallet_proof_expired').toBody());
      }
      const signer = await recoverMessageAddress({
        message: walletProofMessage({
          purpose: 'rotate-shares',
          challenge: body.proof.challenge,
          userId,
          address: state.wallet.address,
          fromGeneration: body.expectedGeneration,
          authShare: decodeShare(body.authShare),
          recovery: body.recovery ?? null,
        }),
        signature: body.proof.signature,
      });
      if (signer !== state.wallet.address) return reply(403, new DialError('wallet_proof_invalid').toBody());
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
