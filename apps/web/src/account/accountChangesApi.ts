import type { AccountChangeAction } from '@dial/core';
import { requestJson } from '../api/client';
import type { AccountChange, AccountProof } from '../api/types';

/** `POST /api/account/proof`: a single-use challenge for one change, and which keys may sign it. */
export interface ProofChallenge {
  challenge: string;
  expiresAt: string;
  signers: `0x${string}`[];
}

/** A challenge (5 minutes, this session only) for the account key's proof of one `action`. */
export function getProofChallenge(action: AccountChangeAction): Promise<ProofChallenge> {
  return requestJson<ProofChallenge>('POST', '/api/account/proof', { body: { action } });
}

/** `GET /api/account/changes`. */
export interface AccountChanges {
  /** The pending changes and those settled in the last 30 days, newest first. */
  changes: AccountChange[];
  coolingOffHours: number;
  signers: `0x${string}`[];
  /** This session signed in with a method linked with proof (or the account's first). */
  sessionTrusted: boolean;
}

export function listAccountChanges(signal?: AbortSignal): Promise<AccountChanges> {
  return requestJson<AccountChanges>('GET', '/api/account/changes', { signal });
}

/** Cancels a pending change; rejects with `change_not_pending` when it is settled already. */
export async function cancelAccountChange(id: string, proof: AccountProof | null): Promise<AccountChange> {
  const { change } = await requestJson<{ change: AccountChange }>(
    'POST',
    `/api/account/changes/${encodeURIComponent(id)}/cancel`,
    { body: proofBody(proof) },
  );
  return change;
}

/** What "Secure my account" did. */
export interface SecuredAccount {
  endedSessions: number;
  removedMethods: number;
  cancelledChanges: number;
  forgottenBrowsers: number;
}

/** "Secure my account": needs the key's proof. */
export function secureAccount(proof: AccountProof): Promise<SecuredAccount> {
  return requestJson<SecuredAccount>('POST', '/api/account/secure', { body: { proof } });
}

/** The body of a change that may carry a proof: always a JSON object, `{}` without one. */
export function proofBody(proof: AccountProof | null): { proof?: AccountProof } {
  return proof === null ? {} : { proof };
}
