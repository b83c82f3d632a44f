import type { Answer } from '../api/client';
import type { AccountChange, StepUpProof } from '../api/types';
import {
  type AccountChangeRequest,
  type NoProofReason,
  type ProveOptions,
  proveAccountChange,
} from './proveAccountChange';

/** A change route's answer when it was asked for without proof (202 `{pending}`): the change waits. */
export type PendingAnswer = Extract<Answer<'removeMethod'>, { pending: unknown }>;

/**
 * What became of a change: made at once (the route's 200 answer), or asked for (202): it then waits out
 * the cooling-off period, and `reason` says why this browser could not prove it (null when a proof was sent
 * and the server still made it wait).
 */
export type ChangeOutcome<T> =
  | { applied: true; value: T }
  | { applied: false; pending: AccountChange; reason: NoProofReason | null };

/**
 * Makes one change to the account: proves it with the account's key when this browser can
 * ({@link proveAccountChange}: no prompt with a device share, the wallet app's otherwise) and sends it with
 * the proof; without one, sends it all the same, and the server keeps it waiting.
 *
 * @param send - Sends the change with the proof, or without (null): answers the route's 200 body or its
 *   202 `{pending}`.
 * @throws {DialError} the route's refusal, or `user_rejected` when the person declined in their wallet.
 */
export async function makeAccountChange<T>(
  userId: string,
  change: AccountChangeRequest,
  send: (proof: StepUpProof | null) => Promise<T | PendingAnswer>,
  options?: ProveOptions,
): Promise<ChangeOutcome<T>> {
  const attempt = await proveAccountChange(userId, change, options);
  const answer = await send(attempt.proof);
  if (isPendingAnswer(answer)) {
    return {
      applied: false,
      pending: answer.pending,
      reason: attempt.proof === null ? attempt.reason : null,
    };
  }
  return { applied: true, value: answer };
}

/** Whether a change route's answer is the 202 `{pending}` (every 200 answer has other fields). */
export function isPendingAnswer(answer: unknown): answer is PendingAnswer {
  if (typeof answer !== 'object' || answer === null || !('pending' in answer)) return false;
  const { pending } = answer as { pending: unknown };
  return typeof pending === 'object' && pending !== null && 'appliesAt' in pending;
}
