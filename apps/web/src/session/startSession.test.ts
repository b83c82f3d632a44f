import { DialError } from '@dial/core';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../api/types';
import type { Session } from './loadSession';
import { resetStartedSession, startedSession, startSession, whenSessionStarted } from './startSession';
import { useSession } from './useSession';

const config = { channels: ['sms'] } as unknown as AppConfig;
const signedOut: Session = { status: 'signed-out', config };

afterEach(() => {
  resetStartedSession();
  vi.useRealTimers();
});

/** A promise and the functions that settle it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** What useSession starts with, rendered once (no effects run): its status. */
function firstStatus(started: ReturnType<typeof startedSession>): string {
  function Probe() {
    return createElement('p', null, useSession(started).session.status);
  }
  return renderToString(createElement(Probe)).replace(/<\/?p>/g, '');
}

describe('the start-up requests started as the app starts', () => {
  it('start once, and hold their outcome once answered', async () => {
    const answer = deferred<Session>();
    const load = vi.fn(() => answer.promise);
    const started = startSession(load);
    expect(startSession(load)).toBe(started);
    expect(startedSession()).toBe(started);
    expect(load).toHaveBeenCalledTimes(1);
    expect(started.settled).toBeUndefined();
    answer.resolve(signedOut);
    await expect(started.promise).resolves.toBe(signedOut);
    expect(started.settled).toBe(signedOut);
  });

  it('turn a failure into a failed session (never a rejection)', async () => {
    const started = startSession(() => Promise.reject(new DialError('too_many_requests')));
    const session = await started.promise;
    expect(session.status).toBe('failed');
    expect(session.status === 'failed' && session.error.code).toBe('too_many_requests');
    expect(started.settled).toBe(session);
  });

  it('let the first render wait for the answers, up to a limit', async () => {
    vi.useFakeTimers();
    const answer = deferred<Session>();
    const started = startSession(() => answer.promise);
    let waited = false;
    void whenSessionStarted(started, 300).then(() => {
      waited = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(waited).toBe(false);
    answer.resolve(signedOut);
    await vi.advanceTimersByTimeAsync(0);
    expect(waited).toBe(true);

    resetStartedSession();
    const slow = startSession(() => new Promise<Session>(() => undefined));
    let gaveUp = false;
    void whenSessionStarted(slow, 300).then(() => {
      gaveUp = true;
    });
    await vi.advanceTimersByTimeAsync(299);
    expect(gaveUp).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(gaveUp).toBe(true);
  });

  it('wait, when signed in, for what the wallet needs too, within the same bound', async () => {
    vi.useFakeTimers();
    const signedIn = { status: 'signed-in', config, user: {} } as unknown as Session;
    const walletCode = deferred<void>();
    let needed = 0;
    const started = startSession(async () => signedIn);
    let waited = false;
    void whenSessionStarted(started, 300, () => {
      needed++;
      return walletCode.promise;
    }).then(() => {
      waited = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(needed).toBe(1);
    expect(waited).toBe(false);
    walletCode.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(waited).toBe(true);

    // Never past the bound, and a failure only ends the wait.
    resetStartedSession();
    const again = startSession(async () => signedIn);
    let gaveUp = false;
    void whenSessionStarted(again, 300, () => new Promise(() => undefined)).then(() => {
      gaveUp = true;
    });
    await vi.advanceTimersByTimeAsync(300);
    expect(gaveUp).toBe(true);
    resetStartedSession();
    let failed = false;
    void whenSessionStarted(
      startSession(async () => signedIn),
      300,
      () => Promise.reject(new Error('offline')),
    ).then(() => {
      failed = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(failed).toBe(true);

    // Signed out, the wallet's code is not asked for.
    resetStartedSession();
    let asked = false;
    await whenSessionStarted(
      startSession(async () => signedOut),
      300,
      async () => {
        asked = true;
      },
    );
    expect(asked).toBe(false);
  });

  it('give useSession its first state: straight to the answer when it is in, else "loading"', async () => {
    expect(firstStatus(undefined)).toBe('loading');
    const answer = deferred<Session>();
    const started = startSession(() => answer.promise);
    expect(firstStatus(started)).toBe('loading');
    answer.resolve(signedOut);
    await started.promise;
    expect(firstStatus(started)).toBe('signed-out');
  });
});
