import type { FastifyBaseLogger } from 'fastify';
import { type CheckOutcome, runDueTransferChecks, type TransferCheckDeps } from './transferChecks.js';

/** How often each server looks for transfers due for a chain check. */
export const TRANSFER_CHECK_INTERVAL_MS = 5_000;

/** A running schedule of chain checks on one server; see {@link startTransferCheckTimer}. */
export interface TransferCheckTimer {
  /** Stops the timer and waits for the tick at work, if any, so nothing touches the database after. */
  stop(): Promise<void>;
}

/**
 * Runs the due chain checks every `intervalMs` on this server (a bounded batch per tick, see
 * `runDueTransferChecks`). Every server runs one: the rows are claimed one by one in the database, so they
 * share the work, and a server that stops leaves nothing behind. A tick still at work when the next is due
 * makes that one skip. The timer does not keep the process alive.
 */
export function startTransferCheckTimer(
  deps: TransferCheckDeps,
  log: FastifyBaseLogger,
  intervalMs: number = TRANSFER_CHECK_INTERVAL_MS,
): TransferCheckTimer {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running !== null) return;
    running = runDueTransferChecks(deps)
      .then((outcomes) => {
        for (const [transferId, outcome] of outcomes) logOutcome(log, transferId, outcome);
      })
      .catch((error: unknown) => log.warn({ err: error }, 'transfer checks failed'))
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

/** Logs what is worth an operator's eye: a record the chain contradicted, and a chain that cannot be read. */
export function logOutcome(log: FastifyBaseLogger, transferId: string, outcome: CheckOutcome): void {
  if (outcome.status === 'dropped') {
    log.info({ transferId, reason: outcome.reason, details: outcome.details }, 'transfer record dropped');
  } else if (outcome.status === 'pending' && outcome.chainError !== undefined) {
    log.warn({ transferId, chainError: outcome.chainError }, 'transfer check: chain not readable, retrying');
  }
}
