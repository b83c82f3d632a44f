import type { FastifyBaseLogger } from 'fastify';
import { type RepeatingTask, startRepeatingTask } from '../system/repeatingTask.js';
import { type ChainWatchDeps, watchChains } from './chainWatch.js';
import type { WatchedChain } from './watchedChains.js';

/**
 * Runs a watcher tick on every watched chain every `intervalMs` (`CHAIN_WATCH_INTERVAL_SECONDS`). Every
 * server runs one: each chain's next range is claimed in the database, so they share the work. A tick still
 * at work when the next is due makes that one skip; `stop()` waits for the tick at work.
 */
export function startChainWatchTimer(
  deps: ChainWatchDeps,
  chains: readonly WatchedChain[],
  log: FastifyBaseLogger,
  intervalMs: number,
): RepeatingTask {
  return startRepeatingTask(
    async () => {
      const outcomes = await watchChains(deps, chains);
      for (const [chainId, outcome] of outcomes) {
        if (outcome.status === 'failed') log.warn({ chainId, reason: outcome.reason }, 'chain watch failed');
      }
    },
    intervalMs,
    (error) => log.warn({ err: error }, 'chain watch failed'),
  );
}
