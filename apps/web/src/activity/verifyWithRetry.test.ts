import { TransactionReceiptNotFoundError } from 'viem';
import { describe, expect, it, vi } from 'vitest';
import type { VerifyResult } from './verifyReceived';
import { RETRY_DELAYS_MS, sleep, verifyWithRetry } from './verifyWithRetry';

const notFound = () => new TransactionReceiptNotFoundError({ hash: `0x${'ab'.repeat(32)}` });

/** A check that gives each of `answers` in turn: a verdict, or an error to throw. */
function checks(...answers: (VerifyResult | Error)[]) {
  return vi.fn(async () => {
    const answer = answers.shift();
    if (answer === undefined) throw new Error('asked once too often');
    if (answer instanceof Error) throw answer;
    return answer;
  });
}

function options(signal = new AbortController().signal) {
  const waits: number[] = [];
  const retries: number[] = [];
  return {
    waits,
    retries,
    options: {
      delays: RETRY_DELAYS_MS,
      signal,
      onRetry: (attempt: number) => retries.push(attempt),
      wait: async (ms: number) => {
        waits.push(ms);
      },
    },
  };
}

describe('verifyWithRetry', () => {
  it('waits 2, 4, 8, 16 and 30 s (a minute in all) between checks of a transfer not on the chain yet', () => {
    expect(RETRY_DELAYS_MS).toEqual([2_000, 4_000, 8_000, 16_000, 30_000]);
    expect(RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0)).toBe(60_000);
  });

  it('tries again while the receipt is not found or the RPC fails, and verifies once it is there', async () => {
    const check = checks(notFound(), new Error('fetch failed'), { ok: true });
    const run = options();

    await expect(verifyWithRetry(check, run.options)).resolves.toBe('verified');

    expect(check).toHaveBeenCalledTimes(3);
    expect(run.waits).toEqual([2_000, 4_000]);
    expect(run.retries).toEqual([1, 2]);
  });

  it('labels the transfer unverified only after every wait, when the chain still does not show it', async () => {
    const check = checks(...Array.from({ length: 6 }, notFound));
    const run = options();

    await expect(verifyWithRetry(check, run.options)).resolves.toBe('unverified');

    expect(check).toHaveBeenCalledTimes(6);
    expect(run.waits).toEqual([2_000, 4_000, 8_000, 16_000, 30_000]);
  });

  it('takes a definite mismatch as final at once, without waiting', async () => {
    const check = checks({ ok: false, reason: 'another amount' });
    const run = options();

    await expect(verifyWithRetry(check, run.options)).resolves.toBe('unverified');

    expect(check).toHaveBeenCalledOnce();
    expect(run.waits).toEqual([]);
  });

  it('stops trying when the list goes away', async () => {
    const controller = new AbortController();
    const check = checks(notFound(), { ok: true });
    const run = options(controller.signal);
    run.options.wait = async (ms: number) => {
      run.waits.push(ms);
      controller.abort();
    };

    await expect(verifyWithRetry(check, run.options)).resolves.toBe('stopped');

    expect(check).toHaveBeenCalledOnce();
  });
});

describe('sleep', () => {
  it('ends early when its signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const slept = sleep(60_000, controller.signal);
    controller.abort();
    await slept;
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
