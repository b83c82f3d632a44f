import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppContext } from '../appContext.js';
import { type RepeatingTask, runWhileOpen, startRepeatingTask } from '../system/repeatingTask.js';
import { watchChains } from './chainWatch.js';
import { type ChainWatchDeps, createChainWatchDeps } from './chainWatchDeps.js';
import { type WatchedChain, watchedChains } from './watchedChains.js';

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

/**
 * The chain watcher of this server while the app is open, on the chains it watches
 * (`CHAIN_WATCH_INTERVAL_SECONDS`, `CHAIN_WATCH_CHAINS`); none when the interval is 0 or no chain is watched.
 */
export function registerChainWatch(app: FastifyInstance, ctx: AppContext): void {
  const chains = watchedChains(ctx.config);
  const intervalMs = ctx.config.chainWatch.intervalMs;
  if (intervalMs <= 0 || chains.length === 0) return;
  runWhileOpen(app, () => startChainWatchTimer(createChainWatchDeps(ctx), chains, app.log, intervalMs));
}
