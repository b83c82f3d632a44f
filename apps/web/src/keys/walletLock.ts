/**
 * Runs `task` holding the Web Lock `dial-wallet-${userId}` (when the browser has Web Locks), so only one tab
 * of this browser at a time opens, creates or changes the user's wallet shares: an opening never prunes the
 * stored shares in the middle of another tab's rotation being sent. Not re-entrant: a task must not take it
 * again.
 */
export function withWalletLock<T>(userId: string, task: () => Promise<T>): Promise<T> {
  if (typeof navigator === 'undefined' || navigator.locks === undefined) return task();
  return navigator.locks.request(`dial-wallet-${userId}`, task) as Promise<T>;
}
