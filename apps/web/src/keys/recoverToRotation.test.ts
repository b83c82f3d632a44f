import {
  combineWalletShares,
  createWalletShares,
  DialError,
  decodeShare,
  deriveRecoveryOprfKey,
  encodeShare,
  evaluateRecoveryOprf,
  isDialError,
} from '@dial/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredRecovery } from '../api/shareEndpoints';
import type { ProtectedRecoveryShare, ScryptKdf } from '../api/types';
import { derivePasswordKey, openWithPassword, protectWithPassword } from './passwordKey';
import { hardenPassword } from './passwordOprf';
import { encryptRecoveryShare } from './recoveryCipher';

/**
 * Recovery on a new browser, up to the rotation it prepares, over a stubbed `fetch` that answers the
 * recovery routes as the server does: the OPRF with the server route's own evaluation function, and one
 * counter of evaluations and reported failures. The browser tests run the same flow against the real server.
 */
const memory = await vi.hoisted(async () => (await import('./testing/memoryShareStore')).memoryShareStore());
vi.mock('./deviceShareStore', () => ({ deviceShareStore: memory.store }));

const { recoverToRotation } = await import('./recoverToRotation');

const USER = 'user-1';
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PASSWORD = 'plum orchard lantern 42';
const FAST = { N: 2 ** 15, r: 8, p: 1 };
const SERVER_KEY = deriveRecoveryOprfKey(crypto.getRandomValues(new Uint8Array(32)), USER);
const harden = (password: string) =>
  hardenPassword(password, async (blinded) => evaluateRecoveryOprf(SERVER_KEY, blinded));

/** A record as Dial wrote it before the OPRF: no `oprf`, scrypt's output is the key. */
async function protectBeforeOprf(share: Uint8Array): Promise<ProtectedRecoveryShare> {
  const kdf: ScryptKdf = {
    name: 'scrypt',
    ...FAST,
    salt: encodeShare(crypto.getRandomValues(new Uint8Array(16))),
  };
  const key = await derivePasswordKey(PASSWORD, kdf, null);
  return { method: 'password', kdf, ciphertext: await encryptRecoveryShare(share, key, 'password', ADDRESS) };
}

/** The wallet at generation 1 whose recovery share is protected by `protect`, and a server that holds it. */
async function walletWithRecovery(protect: (share: Uint8Array) => Promise<ProtectedRecoveryShare>) {
  const shares = await createWalletShares(KEY);
  const recovery: StoredRecovery = { generation: 1, ...(await protect(shares.recoveryShare)) };
  const calls = { evaluations: 0, failures: 0, fetches: 0, refuseEvaluations: false };
  const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
    });
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof globalThis.fetch>(async (input, init) => {
      const route = `${init?.method ?? 'GET'} ${String(input)}`;
      if (route === 'GET /api/wallet') {
        return reply(200, {
          address: ADDRESS,
          authShare: encodeShare(shares.authShare),
          generation: 1,
          recovery: { method: 'password', createdAt: '2030-01-01T00:00:00.000Z' },
        });
      }
      if (route === 'GET /api/wallet/recovery') {
        calls.fetches += 1;
        return reply(200, recovery);
      }
      if (route === 'POST /api/wallet/recovery/oprf') {
        if (calls.refuseEvaluations) {
          return reply(429, new DialError('too_many_requests').toBody(), { 'Retry-After': '900' });
        }
        calls.evaluations += 1;
        const { blindedElement } = JSON.parse(String(init?.body)) as { blindedElement: string };
        return reply(200, {
          evaluatedElement: encodeShare(evaluateRecoveryOprf(SERVER_KEY, decodeShare(blindedElement))),
        });
      }
      if (route === 'POST /api/wallet/recovery/failed') {
        calls.failures += 1;
        return new Response(null, { status: 204 });
      }
      throw new Error(`unexpected request ${route}`);
    }),
  );
  return { shares, calls };
}

/** The key the new split's recovery share (opened as a new browser would) and auth share rebuild. */
async function keyFromRotation(recovery: ProtectedRecoveryShare, authShare: string): Promise<string> {
  const share = await openWithPassword(recovery, ADDRESS, PASSWORD, await harden(PASSWORD));
  return combineWalletShares([share, decodeShare(authShare)], ADDRESS);
}

async function rejection(attempt: Promise<unknown>): Promise<unknown> {
  return attempt.then(
    () => {
      throw new Error('expected a rejection');
    },
    (reason: unknown) => reason,
  );
}

beforeEach(() => memory.clear());
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('recovering with a password', () => {
  it('opens a record written before the OPRF and re-wraps the new recovery share with the OPRF', async () => {
    const { calls } = await walletWithRecovery(protectBeforeOprf);
    const pending = await recoverToRotation(USER, { method: 'password', password: PASSWORD }, () => {});
    const recovery = pending.body.recovery!;
    expect(recovery.kdf).toMatchObject({ name: 'scrypt', oprf: 'ristretto255-sha512' });
    // One evaluation, made once the old record opened, for the new record.
    expect(calls).toMatchObject({ evaluations: 1, failures: 0 });
    await expect(keyFromRotation(recovery, pending.body.authShare)).resolves.toBe(KEY);
    // The new record no longer opens with scrypt alone.
    const { oprf: _marker, ...scryptOnly } = recovery.kdf as ScryptKdf;
    const opened = openWithPassword({ ...recovery, kdf: scryptOnly }, ADDRESS, PASSWORD, null);
    expect(isDialError(await rejection(opened), 'wrong_recovery_password')).toBe(true);
  }, 30_000);

  it('reports a wrong password for a record written before the OPRF, and asks for no evaluation', async () => {
    const { calls } = await walletWithRecovery(protectBeforeOprf);
    const error = await rejection(
      recoverToRotation(USER, { method: 'password', password: 'plum orchard lantern 43' }, () => {}),
    );
    expect(isDialError(error, 'wrong_recovery_password')).toBe(true);
    expect(calls).toMatchObject({ evaluations: 0, failures: 1 });
  });

  it('opens an OPRF record with one evaluation, reused for the new record', async () => {
    const { calls } = await walletWithRecovery(async (share) =>
      protectWithPassword(share, ADDRESS, PASSWORD, await harden(PASSWORD), undefined, FAST),
    );
    const pending = await recoverToRotation(USER, { method: 'password', password: PASSWORD }, () => {});
    expect(calls).toMatchObject({ fetches: 1, evaluations: 1, failures: 0 });
    expect(pending.body.recovery!.kdf).toMatchObject({ oprf: 'ristretto255-sha512' });
    await expect(keyFromRotation(pending.body.recovery!, pending.body.authShare)).resolves.toBe(KEY);
  }, 30_000);

  it('counts a wrong password for an OPRF record by its evaluation alone (no separate report)', async () => {
    const { calls } = await walletWithRecovery(async (share) =>
      protectWithPassword(share, ADDRESS, PASSWORD, await harden(PASSWORD), undefined, FAST),
    );
    const error = await rejection(
      recoverToRotation(USER, { method: 'password', password: 'plum orchard lantern 43' }, () => {}),
    );
    expect(isDialError(error, 'wrong_recovery_password')).toBe(true);
    expect(calls).toMatchObject({ evaluations: 1, failures: 0 });
  });

  it('stops before scrypt when the server refuses the evaluation, passing on the wait', async () => {
    const { calls } = await walletWithRecovery(async (share) =>
      protectWithPassword(share, ADDRESS, PASSWORD, await harden(PASSWORD), undefined, FAST),
    );
    calls.refuseEvaluations = true;
    const progress: number[] = [];
    const error = await rejection(
      recoverToRotation(USER, { method: 'password', password: PASSWORD }, (stage, fraction) => {
        if (stage === 'unlocking' && fraction !== null) progress.push(fraction);
      }),
    );
    expect(isDialError(error, 'too_many_requests')).toBe(true);
    expect((error as DialError).retryAfterSeconds).toBe(900);
    // scrypt never ran: no progress past the start.
    expect(progress).toEqual([0]);
    expect(memory.keys(USER)).toEqual([]);
  });
});
