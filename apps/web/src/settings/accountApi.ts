import { proofBody } from '../account/accountChangesApi';
import { type Answer, callApi } from '../api/client';
import type { OtpChannel, SessionInfo, SiweNonce, StepUpProof } from '../api/types';

/** The person's sign-in methods, oldest first, and how many they may have. */
export type MethodList = Answer<'listMethods'>;

/** A method route's answer when the change was made (200). */
export type MethodAnswer = Extract<Answer<'updateMethod'>, { method: unknown }>;

export function listMethods(signal?: AbortSignal): Promise<MethodList> {
  return callApi('listMethods', { signal });
}

/**
 * Sends a code to a phone number (E.164) or e-mail address to link; rejects with `method_already_linked`,
 * `methods_limit_reached` or `delivery_failed`, or a rate limit's code.
 */
export function startLinkCode(channel: OtpChannel, to: string): Promise<Answer<'linkCodeStart'>> {
  return callApi('linkCodeStart', { body: { channel, to } });
}

/**
 * Checks the code and links the number or address: at once with the key's proof, else it waits (202);
 * rejects with `invalid_code`, `code_expired`, `code_attempts_exceeded`, `method_taken` (another account's),
 * `method_already_linked` or `methods_limit_reached`.
 */
export function verifyLinkCode(
  channel: OtpChannel,
  to: string,
  code: string,
  proof: StepUpProof | null = null,
): Promise<Answer<'linkCodeVerify'>> {
  return callApi('linkCodeVerify', { body: { channel, to, code, ...proofBody(proof) } });
}

/** A nonce for the SIWE message that links a wallet, bound to this session. */
export function getLinkWalletNonce(): Promise<SiweNonce> {
  return callApi('linkWalletNonce');
}

/** Links the address that signed `message` (a SIWE message with a link nonce): at once with the proof. */
export function linkWallet(
  message: string,
  signature: string,
  proof: StepUpProof | null = null,
): Promise<Answer<'linkWallet'>> {
  return callApi('linkWallet', { body: { message, signature, ...proofBody(proof) } });
}

/** Turns a phone number's findability for send-to-phone on or off: at once with the proof. */
export function setFindable(
  id: string,
  findable: boolean,
  proof: StepUpProof | null = null,
): Promise<Answer<'updateMethod'>> {
  return callApi('updateMethod', { params: { id }, body: { findable, ...proofBody(proof) } });
}

/**
 * Unlinks a method, at once with the proof; rejects with `last_method` for the only one, `not_found` when
 * it is gone, `method_outranked` from a session of a method linked without proof.
 */
export function removeMethod(id: string, proof: StepUpProof | null = null): Promise<Answer<'removeMethod'>> {
  return callApi('removeMethod', { params: { id }, body: proofBody(proof) });
}

/** Makes a wallet linked without proof the account's wallet: at once with the proof. */
export function useWallet(id: string, proof: StepUpProof | null = null): Promise<Answer<'useWallet'>> {
  return callApi('useWallet', { params: { id }, body: proofBody(proof) });
}

export async function listSessions(signal?: AbortSignal): Promise<SessionInfo[]> {
  const { sessions } = await callApi('listSessions', { signal });
  return sessions;
}

/**
 * Ends one session on every server at once (another one: with the proof, else it waits); rejects with
 * `not_found` when it has ended already.
 */
export function endSession(id: string, proof: StepUpProof | null = null): Promise<Answer<'endSession'>> {
  return callApi('endSession', { params: { id }, body: proofBody(proof) });
}

/** Ends every session of the person but this one (with the proof, else it waits); says how many ended. */
export function endOtherSessions(proof: StepUpProof | null = null): Promise<Answer<'endOtherSessions'>> {
  return callApi('endOtherSessions', { body: proofBody(proof) });
}

/** Ends this session and clears the cookie; the others at once with the proof, else they wait. */
export function logoutEverywhere(proof: StepUpProof | null = null): Promise<Answer<'logoutEverywhere'>> {
  return callApi('logoutEverywhere', { body: proofBody(proof) });
}
