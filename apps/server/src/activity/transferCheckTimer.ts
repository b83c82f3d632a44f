import type { FastifyBaseLogger } from 'fastify';
import { type RepeatingTask, startRepeatingTask } from '../system/repeatingTask.js';
import { type CheckOutcome, runDueTransferChecks, type TransferCheckDeps } from './transferChecks.js';

/** How often each server looks for transfers due for a chain check. */
export const TRANSFER_CHECK_INTERVAL_MS = 5_000;

/**
 * Runs the due chain checks every `intervalMs` on this server (a bounded batch per tick, see
 * `runDueTransferChecks`). Every server runs one: the rows are claimed one by one in the database, so they
 * share the work, and a server that stops leaves nothing behind. A tick still at work when the next is due
 * makes that one skip; `stop()` waits for the tick at work.
 */
export function startTransferCheckTimer(
  deps: TransferCheckDeps,
  log: FastifyBaseLogger,
  intervalMs: number = TRANSFER_CHECK_INTERVAL_MS,
): RepeatingTask {
  return startRepeatingTask(
    async () => {
      const outcomes = await runDueTransferChecks(deps);
      for (const [transferId, outcome] of outcomes) logOutcome(log, transferId, outcome);
    },
    intervalMs,
    (error) => log.warn({ err: error }, 'transfer checks failed'),
  );
}

/** Logs what is worth an operator's eye: a record the chain contradicted, and a chain that cannot be read. */
export function logOutcome(log: FastifyBaseLogger, transferId: string, outcome: CheckOutcome): void {
  if (outcome.status === 'dropped') {
    log.info({ transferId, reason: outcome.reason, details: outcome.details }, 'transfer record dropped');
  } else if (outcome.status === 'pending' && outcome.chainError !== undefined) {
    log.warn({ transferId, chainError: outcome.chainError }, 'transfer check: chain not readable, retrying');
  }
}
