import type { AccountChangeAction } from '@dial/core';
import { type Answer, type Body, callApi } from '../api/client';
import type { AccountChange, StepUpProof } from '../api/types';

/** A single-use challenge for one change (5 minutes, this session only), and which keys may sign it. */
export type ProofChallenge = Answer<'accountProof'>;

/** A challenge for the account key's proof of one `action`. */
export function getProofChallenge(action: AccountChangeAction): Promise<ProofChallenge> {
  return callApi('accountProof', { body: { action } });
}

/**
 * The pending changes and those settled in the last 30 days, newest first; the cooling-off period; the
 * account's signers; whether this session signed in with a method linked with proof (or the account's first).
 */
export type AccountChanges = Answer<'listAccountChanges'>;

export function listAccountChanges(signal?: AbortSignal): Promise<AccountChanges> {
  return callApi('listAccountChanges', { signal });
}

/** Cancels a pending change; rejects with `change_not_pending` when it is settled already. */
export async function cancelAccountChange(id: string, proof: StepUpProof | null): Promise<AccountChange> {
  const { change } = await callApi('cancelAccountChange', { params: { id }, body: proofBody(proof) });
  return change;
}

/** What "Secure my account" did. */
export type SecuredAccount = Answer<'secureAccount'>;

/** "Secure my account": needs the key's proof. */
export function secureAccount(proof: StepUpProof): Promise<SecuredAccount> {
  return callApi('secureAccount', { body: { proof } });
}

/** The body of a change that may carry a proof: always a JSON object, `{}` without one. */
export function proofBody(proof: StepUpProof | null): Body<'removeMethod'> {
  return proof === null ? {} : { proof };
}
