import { combineWalletShares, type DialError, decodeShare, encodeShare, isDialError } from '@dial/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeError } from '../api/describeError';
import type { ProtectedRecoveryShare, ScryptKdf } from '../api/types';
import { derivePasswordKey, openWithPassword, protectWithPassword } from './passwordKey';
import { hardenPassword } from './passwordOprf';
import { encryptRecoveryShare } from './recoveryCipher';
import { withDialServer } from './testing/dialServer';
import { TEST_WALLET_ADDRESS, TEST_WALLET_KEY } from './testing/testWallet';

/**
 * Recovery on a new browser, which enrolls it as one more device of the wallet, against the real server (its
 * recovery and device routes, its OPRF key and its hourly recovery budget) through the stubbed `fetch`,
 * counting the recovery requests this browser made, over an in-memory stand-in for the device store. The
 * browser tests run the same flow in Chromium.
 */
const memory = await vi.hoisted(async () =>
  (await import('./testing/memoryDeviceStore')).memoryDeviceStore(),
);
vi.mock('./deviceStore', () => ({ deviceStore: memory.store }));
vi.mock('./legacyShares', () => ({ legacyShares: memory.legacyStore }));

const { recoverWallet } = await import('./recoverWallet');
const { unlockDevice } = await import('./deviceApi');
const { deviceStore } = await import('./deviceStore');
const recoverToRotation = async (...args: Parameters<typeof recoverWallet>) => {
  const recovered = await recoverWallet(...args);
  if (recovered.rewrap === null) throw new Error('expected a re-wrap');
  return recovered.rewrap;
};

const dialServer = withDialServer();
/** The signed-in user's id, as the server gave it. */
let USER = '';
const KEY = TEST_WALLET_KEY;
const ADDRESS = TEST_WALLET_ADDRESS;
const PASSWORD = 'plum orchard lantern 42';
const FAST = { N: 2 ** 15, r: 8, p: 1 };
/** The OPRF output of `password` under the server's key for this user (asked directly, not counted here). */
const harden = (password: string) => hardenPassword(password, dialServer().evaluate);

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

/**
 * The wallet, registered by another browser (its device returned), whose recovery share is protected by
 * `protect` (the recovery pair at generation 2), and the server's count of the recovery requests this
 * browser made.
 */
async function walletWithRecovery(protect: (share: Uint8Array) => Promise<ProtectedRecoveryShare>) {
  const server = dialServer();
  const { device: other } = await server.register(KEY);
  await server.setRecovery(KEY, protect);
  const calls = {
    get fetches() {
      return server.count('GET /api/wallet/recovery');
    },
    get evaluations() {
      return server.count('POST /api/wallet/recovery/oprf', 200);
    },
    get failures() {
      return server.count('POST /api/wallet/recovery/failed');
    },
  };
  return { other, calls };
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

beforeEach(() => {
  USER = dialServer().userId;
  memory.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('recovering enrolls this browser as one more device', () => {
  it('keeps the device here, leaves the other browser and the recovery pair as they were (no lock-out)', async () => {
    const { other, calls } = await walletWithRecovery(async (share) =>
      protectWithPassword(share, ADDRESS, PASSWORD, await harden(PASSWORD), undefined, FAST),
    );
    const before = await dialServer().wallet();
    const stages: string[] = [];
    const recovered = await recoverWallet(USER, { method: 'password', password: PASSWORD }, (stage) => {
      if (stages.at(-1) !== stage) stages.push(stage);
    });
    // An OPRF record needs no re-wrap: nothing else changes.
    expect(recovered).toEqual({ address: ADDRESS, rewrap: null });
    expect(stages).toEqual(['fetching', 'unlocking', 'enrolling']);
    expect(calls).toMatchObject({ fetches: 1, evaluations: 1, failures: 0 });
    expect(dialServer().answers.find((a) => a.route === 'POST /api/wallet/devices')).toMatchObject({
      status: 201,
      body: { device: { how: 'recovered' } },
    });
    expect(dialServer().count('PUT /api/wallet/shares')).toBe(0);
    // This browser's device rebuilds the key…
    const here = (await deviceStore.load(USER))!;
    const mine = await unlockDevice(here.deviceId, here.secret);
    await expect(combineWalletShares([here.heldShare, decodeShare(mine.authShare)], ADDRESS)).resolves.toBe(
      KEY,
    );
    // …and so does the other browser's, untouched; the recovery pair is the same generation.
    const theirs = await unlockDevice(other.deviceId, other.secret);
    await expect(
      combineWalletShares([other.heldShare, decodeShare(theirs.authShare)], ADDRESS),
    ).resolves.toBe(KEY);
    expect(await dialServer().wallet()).toMatchObject({ generation: before.generation, devices: 2 });
  }, 30_000);
});

describe('recovering with a password', () => {
  it('opens a record written before the OPRF, enrolls, and re-wraps a new recovery pair with the OPRF', async () => {
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

  it('opens an OPRF record with one evaluation and keeps it as it is (no re-wrap)', async () => {
    const { calls } = await walletWithRecovery(async (share) =>
      protectWithPassword(share, ADDRESS, PASSWORD, await harden(PASSWORD), undefined, FAST),
    );
    const recovered = await recoverWallet(USER, { method: 'password', password: PASSWORD }, () => {});
    expect(recovered.rewrap).toBeNull();
    expect(calls).toMatchObject({ fetches: 1, evaluations: 1, failures: 0 });
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

  it('counts one try for each wrong password, saying how many are left, then the last with its wait', async () => {
    await walletWithRecovery(async (share) =>
      protectWithPassword(share, ADDRESS, PASSWORD, await harden(PASSWORD), undefined, FAST),
    );
    const wrong = async () => {
      const error = await rejection(
        recoverToRotation(USER, { method: 'password', password: 'plum orchard lantern 43' }, () => {}),
      );
      expect(isDialError(error, 'wrong_recovery_password')).toBe(true);
      return error as DialError;
    };
    // The hour's budget is 10, and a try of a password is its one evaluation: fetching the record is not
    // counted. (Setting up above evaluated once, outside this browser's count: 9 are left.)
    const first = await wrong();
    expect(first.message).toBe(
      'That recovery password is not right. 8 tries left before Dial makes you wait.',
    );
    expect(first.retryAfterSeconds).toBeUndefined();
    const messages: string[] = [];
    for (let i = 0; i < 7; i++) messages.push((await wrong()).message);
    expect(messages).toEqual([
      ...[7, 6, 5, 4, 3, 2].map(
        (left) => `That recovery password is not right. ${left} tries left before Dial makes you wait.`,
      ),
      'That recovery password is not right. 1 try left before Dial makes you wait.',
    ]);
    // The last one says so, with the wait the server gave (the clock is at the start of its hour).
    const last = await wrong();
    expect(last.message).toBe(
      'That recovery password is not right. That was the last try for now: Dial makes you wait before the next one, to keep guessers out.',
    );
    expect(last.retryAfterSeconds).toBe(3600);
    expect(describeError(last)).toBe(`${last.message} You can try again in 1 hour.`);
    // The next evaluation is refused with the same wait.
    const refused = await rejection(
      recoverToRotation(USER, { method: 'password', password: PASSWORD }, () => {}),
    );
    expect(isDialError(refused, 'too_many_requests')).toBe(true);
    expect((refused as DialError).retryAfterSeconds).toBe(3600);
    expect(dialServer().count('GET /api/wallet/recovery')).toBe(10);
    expect(dialServer().count('POST /api/wallet/recovery/oprf', 200)).toBe(9);
  }, 60_000);

  it('stops before scrypt when the server refuses the evaluation, passing on the wait', async () => {
    await walletWithRecovery(async (share) =>
      protectWithPassword(share, ADDRESS, PASSWORD, await harden(PASSWORD), undefined, FAST),
    );
    // The hourly recovery budget is spent, 15 minutes before it renews: fetching the record is still
    // answered, and the server refuses the evaluation.
    await dialServer().spendRecoveryBudget(0, 900);
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
    expect(memory.deviceId(USER)).toBeNull();
    expect(dialServer().count('POST /api/wallet/devices')).toBe(0);
  });
});
