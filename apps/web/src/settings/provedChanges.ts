import { CHANNEL_METHOD_KIND } from '@dial/core';
import {
  type ChangeOutcome,
  isPendingAnswer,
  makeAccountChange,
  type PendingAnswer,
} from '../account/makeAccountChange';
import { type NoProofReason, proveAccountChange } from '../account/proveAccountChange';
import type { OtpChannel, SignInMethod } from '../api/types';
import {
  endOtherSessions,
  endSession,
  logoutEverywhere,
  type MethodAnswer,
  removeMethod,
  setFindable,
  useWallet,
  verifyLinkCode,
} from './accountApi';

// The settings screen's changes to the account, each proved with the account's key when this browser can
// (see `makeAccountChange`): made at once then, else asked for (they wait out the cooling-off period).

/** Links the phone number or e-mail address `to` (as the code's start answered it) with its code. */
export function linkByCode(
  userId: string,
  channel: OtpChannel,
  to: string,
  code: string,
): Promise<ChangeOutcome<SignInMethod>> {
  return makeAccountChange(
    userId,
    { action: 'link-method', kind: CHANNEL_METHOD_KIND[channel], value: to },
    async (proof) => methodOf(await verifyLinkCode(channel, to, code, proof)),
  );
}

export function changeFindable(
  userId: string,
  id: string,
  findable: boolean,
): Promise<ChangeOutcome<SignInMethod>> {
  return makeAccountChange(userId, { action: 'set-findable', id, findable }, async (proof) =>
    methodOf(await setFindable(id, findable, proof)),
  );
}

export function removeSignInMethod(userId: string, id: string): Promise<ChangeOutcome<true>> {
  return makeAccountChange(userId, { action: 'remove-method', id }, async (proof) =>
    done(await removeMethod(id, proof)),
  );
}

/** Makes a wallet linked without proof the account's wallet. */
export function makeAccountWallet(userId: string, id: string): Promise<ChangeOutcome<SignInMethod>> {
  return makeAccountChange(userId, { action: 'use-wallet', id }, async (proof) =>
    methodOf(await useWallet(id, proof)),
  );
}

/** Ends another session. */
export function endOneSession(userId: string, id: string): Promise<ChangeOutcome<true>> {
  return makeAccountChange(userId, { action: 'end-sessions', id }, async (proof) =>
    done(await endSession(id, proof)),
  );
}

/** Ends every session but this one; when made at once, says how many ended. */
export function endEveryOtherSession(userId: string): Promise<ChangeOutcome<number>> {
  return makeAccountChange(userId, { action: 'end-sessions', id: 'all-others' }, async (proof) => {
    const answer = await endOtherSessions(proof);
    return isPendingAnswer(answer) ? answer : answer.ended;
  });
}

/** Signs this browser out, and every other session: at once with the proof, else after the wait. */
export function signOutEverywhere(userId: string): Promise<ChangeOutcome<true>> {
  return makeAccountChange(userId, { action: 'end-sessions', id: 'all-others' }, async (proof) =>
    done(await logoutEverywhere(proof)),
  );
}

/**
 * Adds a passkey named `name` (the browser makes it: fingerprint, face or screen lock) as a sign-in method:
 * proved with the account's key (or another of its passkeys) once the new passkey's id is known, since the
 * proof names it; else it waits. The passkey code is a chunk of its own, loaded here.
 */
export async function addPasskey(userId: string, name: string): Promise<ChangeOutcome<SignInMethod>> {
  const { linkPasskey } = await import('../passkeys/passkeyCeremonies');
  let reason: NoProofReason | null = null;
  const answer = await linkPasskey(name, async (credentialId) => {
    const attempt = await proveAccountChange(userId, {
      action: 'link-method',
      kind: 'passkey',
      value: credentialId,
    });
    if (attempt.proof === null) reason = attempt.reason;
    return attempt.proof;
  });
  return isPendingAnswer(answer)
    ? { applied: false, pending: answer.pending, reason }
    : { applied: true, value: answer.method };
}

function methodOf(answer: MethodAnswer | PendingAnswer): SignInMethod | PendingAnswer {
  return isPendingAnswer(answer) ? answer : answer.method;
}

function done(answer: { ok: true } | PendingAnswer): true | PendingAnswer {
  return isPendingAnswer(answer) ? answer : true;
}
