import type { VerifyResult } from './verifyReceived';

/**
 * The waits between checks of a received transfer the chain does not show yet (or could not be asked
 * about): 2 s, 4 s, 8 s, 16 s, 30 s, a minute in all. A transfer just sent is often not mined yet, and a
 * flaky RPC answers on a second try; after a minute the sender's word is all there is.
 */
export const RETRY_DELAYS_MS: readonly number[] = [2_000, 4_000, 8_000, 16_000, 30_000];

export type VerifyOutcome = 'verified' | 'unverified' | 'stopped';

export interface RetryOptions {
  /** The waits before each new try; once they are used up, a check that still throws is final. */
  delays: readonly number[];
  /** Aborted when the list goes away: no more tries, the outcome is `stopped`. */
  signal: AbortSignal;
  /** Told before each wait, so the list can say the transfer is not found yet. */
  onRetry(attempt: number): void;
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * Runs `check` until the chain gives a definite answer. `check` resolves with a verdict on what the chain
 * shows (a mismatch such as another amount or sender, or a failed transaction, is final at once), and
 * throws when there is nothing to judge yet: the receipt is not found (not mined) or the RPC call failed.
 * Those are tried again after each of `delays`; still nothing after the last is `unverified`.
 */
export async function verifyWithRetry(
  check: () => Promise<VerifyResult>,
  { delays, signal, onRetry, wait = sleep }: RetryOptions,
): Promise<VerifyOutcome> {
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) return 'stopped';
    try {
      const result = await check();
      if (signal.aborted) return 'stopped';
      return result.ok ? 'verified' : 'unverified';
    } catch {
      if (signal.aborted) return 'stopped';
      const delay = delays[attempt];
      if (delay === undefined) return 'unverified';
      onRetry(attempt + 1);
      await wait(delay, signal);
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (the caller then sees it aborted). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
