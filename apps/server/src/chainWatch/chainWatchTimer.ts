import type { FastifyBaseLogger } from 'fastify';
import { type ChainWatchDeps, watchChains } from './chainWatch.js';
import type { WatchedChain } from './watchedChains.js';

/** A running chain watcher on one server; see {@link startChainWatchTimer}. */
export interface ChainWatchTimer {
  /** Stops the timer and waits for the tick at work, if any, so nothing touches the database after. */
  stop(): Promise<void>;
}

/**
 * Runs a watcher tick on every watched chain every `intervalMs` (`CHAIN_WATCH_INTERVAL_SECONDS`). Every
 * server runs one: each chain's next range is claimed in the database, so they share the work. A tick still
 * at work when the next is due makes that one skip. The timer does not keep the process alive.
 */
export function startChainWatchTimer(
  deps: ChainWatchDeps,
  chains: readonly WatchedChain[],
  log: FastifyBaseLogger,
  intervalMs: number,
): ChainWatchTimer {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running !== null) return;
    running = watchChains(deps, chains)
      .then((outcomes) => {
        for (const [chainId, outcome] of outcomes) {
          if (outcome.status === 'failed')
            log.warn({ chainId, reason: outcome.reason }, 'chain watch failed');
        }
      })
      .catch((error: unknown) => log.warn({ err: error }, 'chain watch failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
