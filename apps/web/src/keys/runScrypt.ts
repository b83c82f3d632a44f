import { scryptAsync } from '@noble/hashes/scrypt';
import type { ScryptReply, ScryptRequest } from './scryptWorker';

/**
 * scrypt with dkLen 32: in a Web Worker where there are workers (the browser), so the page stays
 * responsive and shows progress; inline elsewhere (tests under Node).
 */
export function runScrypt(
  request: ScryptRequest,
  onProgress?: (fraction: number) => void,
): Promise<Uint8Array> {
  if (typeof Worker === 'undefined') {
    const { password, salt, N, r, p } = request;
    return scryptAsync(password, salt, {
      N,
      r,
      p,
      dkLen: 32,
      ...(onProgress !== undefined ? { onProgress } : {}),
    });
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./scryptWorker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<ScryptReply>) => {
      const reply = event.data;
      if (reply.type === 'progress') {
        onProgress?.(reply.fraction);
        return;
      }
      worker.terminate();
      if (reply.type === 'done') {
        onProgress?.(1);
        resolve(reply.key);
      } else reject(new Error(reply.message));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'the scrypt worker failed'));
    };
    worker.postMessage(request);
  });
}
