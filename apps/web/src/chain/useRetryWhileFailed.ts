import { useEffect, useRef } from 'react';

/** The wait before automatic retry number `attempt` (from 0): 2 s, 4 s, 8 s, 16 s, then every 30 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000, 2_000 * 2 ** attempt);
}

/**
 * While `failure` is not null, calls `retry` after a growing pause ({@link retryDelayMs}), and at once when
 * the browser says it is back online. Each failed retry must give a new `failure` object (that schedules the
 * next one); null (the read succeeded) starts the pauses over.
 */
export function useRetryWhileFailed(failure: object | null, retry: () => void): void {
  const attempt = useRef(0);
  const latest = useRef(retry);
  latest.current = retry;

  useEffect(() => {
    if (failure === null) {
      attempt.current = 0;
      return;
    }
    const timer = setTimeout(() => {
      attempt.current += 1;
      latest.current();
    }, retryDelayMs(attempt.current));
    const online = () => latest.current();
    window.addEventListener('online', online);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('online', online);
    };
  }, [failure]);
}

/** A failed balance's line: the error's message, and that Dial is trying again by itself. */
export function retryingText(error: { message: string }): string {
  return `${error.message} Dial keeps trying.`;
}
