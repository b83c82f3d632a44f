import { type Answer, type Body, callApi } from './client';
import type { AccountProof } from './types';

/** The new shares of a rotation (`rotateShares`' body), before the wallet key's proof over them. */
export type ShareRotation = Omit<Body<'rotateShares'>, 'proof'>;

/**
 * Replaces the auth share (and recovery share) with those of a new split of the same key, if the server is
 * still at `expectedGeneration`; rejects with `stale_share_generation` or `reauthentication_required`.
 */
export function putShares(rotation: Body<'rotateShares'>): Promise<Answer<'rotateShares'>> {
  return callApi('rotateShares', { body: rotation });
}

/** The encrypted recovery share; rejects with `recovery_not_set_up` or `too_many_requests`. */
export function getRecovery(): Promise<Answer<'getRecovery'>> {
  return callApi('getRecovery');
}

/** Reports a recovery password that did not decrypt the share (it counts against the hourly limit). */
export async function reportRecoveryFailed(): Promise<void> {
  await callApi('recoveryFailed');
}

/** Sends a confirmation code to the signed-in user's own phone (or e-mail). */
export function startReauth(): Promise<Answer<'reauthStart'>> {
  return callApi('reauthStart');
}

/** Checks the confirmation code; sensitive actions are then open to this session for 5 minutes. */
export function verifyReauth(code: string): Promise<Answer<'reauthVerify'>> {
  return callApi('reauthVerify', { body: { code } });
}

/**
 * The auth share for showing the private key, with the key's proof (`export-key`); rejects with
 * `reauthentication_required` without a fresh code.
 */
export function getWalletExport(proof: AccountProof): Promise<Answer<'walletExport'>> {
  return callApi('walletExport', { body: { proof } });
}
