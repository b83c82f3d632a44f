import { blindRecoveryPassword, decodeShare, encodeShare, finalizeRecoveryPassword } from '@dial/core';
import { callApi } from '../api/client';

/**
 * Told how many of the user's recovery tries the hour still allows after an evaluation and, when none is,
 * the seconds until the next.
 */
export type TriesLeftListener = (triesLeft: number, retryAfterSeconds?: number) => void;

/**
 * Sends a blinded element to be evaluated under the signed-in user's OPRF key; returns the answer, and tells
 * `onTriesLeft` what is left of the user's recovery tries.
 */
export type EvaluateBlinded = (
  blindedElement: Uint8Array,
  onTriesLeft?: TriesLeftListener,
) => Promise<Uint8Array>;

/**
 * `recoveryOprf`: the server evaluates the blinded password. Counted against the hourly
 * recovery limit (`too_many_requests` with the wait after it); the answer says how much of it is left.
 */
export async function evaluateOnServer(
  blindedElement: Uint8Array,
  onTriesLeft?: TriesLeftListener,
): Promise<Uint8Array> {
  const answer = await callApi('recoveryOprf', { body: { blindedElement: encodeShare(blindedElement) } });
  if (typeof answer.triesLeft === 'number') onTriesLeft?.(answer.triesLeft, answer.retryAfterSeconds);
  return decodeShare(answer.evaluatedElement);
}

/**
 * Hardens a recovery password through the server (RFC 9497 OPRF): the password is blinded here, so the
 * server sees nothing of it, and the output needs the server's per-user key, so whoever copies the
 * encrypted recovery share cannot check a guess without asking the server, which counts every guess.
 *
 * @param onTriesLeft - Told how many of the user's hourly recovery tries are left after this evaluation
 *   (and, when none is, how long until the next).
 * @returns the 64-byte OPRF output; the caller wipes it when done.
 * @throws {DialError} `too_many_requests`, `invalid_data` for an answer that is no valid element, or an
 * API error.
 */
export async function hardenPassword(
  password: string,
  evaluate: EvaluateBlinded = evaluateOnServer,
  onTriesLeft?: TriesLeftListener,
): Promise<Uint8Array> {
  const { blind, blindedElement } = blindRecoveryPassword(password);
  try {
    return finalizeRecoveryPassword(password, blind, await evaluate(blindedElement, onTriesLeft));
  } finally {
    blind.fill(0);
  }
}
