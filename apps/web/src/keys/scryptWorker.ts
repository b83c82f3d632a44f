/// <reference lib="webworker" />
import { scryptAsync } from '@noble/hashes/scrypt';

/**
 * Runs scrypt off the main thread. noble's `scryptAsync` yields only to microtasks, which keeps the page
 * from painting or answering input during the ~1–2 s it takes; in a worker the page stays responsive and
 * the progress messages can be shown as they come.
 */
export interface ScryptRequest {
  password: string;
  salt: Uint8Array;
  N: number;
  r: number;
  p: number;
}

export type ScryptReply =
  | { type: 'progress'; fraction: number }
  | { type: 'done'; key: Uint8Array }
  | { type: 'error'; message: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = async (event: MessageEvent<ScryptRequest>) => {
  const { password, salt, N, r, p } = event.data;
  let lastPercent = -1;
  try {
    const key = await scryptAsync(password, salt, {
      N,
      r,
      p,
      dkLen: 32,
      onProgress(fraction) {
        // Only whole percents: scrypt reports thousands of times.
        const percent = Math.floor(fraction * 100);
        if (percent === lastPercent) return;
        lastPercent = percent;
        scope.postMessage({ type: 'progress', fraction } satisfies ScryptReply);
      },
    });
    scope.postMessage({ type: 'done', key } satisfies ScryptReply, [key.buffer]);
  } catch (error) {
    scope.postMessage({
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
    } satisfies ScryptReply);
  }
};
