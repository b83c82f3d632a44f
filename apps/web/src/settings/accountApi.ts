import { proofBody } from '../account/accountChangesApi';
import type { PendingAnswer } from '../account/makeAccountChange';
import { requestJson } from '../api/client';
import type {
  AccountProof,
  OtpChannel,
  OtpStarted,
  SessionInfo,
  SignInMethod,
  SiweNonce,
} from '../api/types';

/** A method route's answer when the change was made. */
export interface MethodAnswer {
  method: SignInMethod;
}

/** `GET /api/auth/methods`: the person's sign-in methods, oldest first, and how many they may have. */
export interface MethodList {
  methods: SignInMethod[];
  maxMethods: number;
}

export function listMethods(signal?: AbortSignal): Promise<MethodList> {
  return requestJson<MethodList>('GET', '/api/auth/methods', { signal });
}

/**
 * Sends a code to a phone number (E.164) or e-mail address to link; rejects with `method_already_linked`,
 * `methods_limit_reached` or `delivery_failed`, or a rate limit's code.
 */
export function startLinkCode(channel: OtpChannel, to: string): Promise<OtpStarted> {
  return requestJson<OtpStarted>('POST', '/api/auth/methods/code', { body: { channel, to } });
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
  proof: AccountProof | null = null,
): Promise<MethodAnswer | PendingAnswer> {
  return requestJson('POST', '/api/auth/methods/code/verify', {
    body: { channel, to, code, ...proofBody(proof) },
  });
}

/** A nonce for the SIWE message that links a wallet, bound to this session. */
export function getLinkWalletNonce(): Promise<SiweNonce> {
  return requestJson<SiweNonce>('POST', '/api/auth/methods/wallet/nonce', { body: {} });
}

/** Links the address that signed `message` (a SIWE message with a link nonce): at once with the proof. */
export function linkWallet(
  message: string,
  signature: string,
  proof: AccountProof | null = null,
): Promise<MethodAnswer | PendingAnswer> {
  return requestJson('POST', '/api/auth/methods/wallet', {
    body: { message, signature, ...proofBody(proof) },
  });
}

/** Turns a phone number's findability for send-to-phone on or off: at once with the proof. */
export function setFindable(
  id: string,
  findable: boolean,
  proof: AccountProof | null = null,
): Promise<MethodAnswer | PendingAnswer> {
  return requestJson('PATCH', methodPath(id), { body: { findable, ...proofBody(proof) } });
}

/**
 * Unlinks a method, at once with the proof; rejects with `last_method` for the only one, `not_found` when
 * it is gone, `method_outranked` from a session of a method linked without proof.
 */
export function removeMethod(
  id: string,
  proof: AccountProof | null = null,
): Promise<{ ok: true } | PendingAnswer> {
  return requestJson('POST', `${methodPath(id)}/remove`, { body: proofBody(proof) });
}

/** Makes a wallet linked without proof the account's wallet: at once with the proof. */
export function useWallet(
  id: string,
  proof: AccountProof | null = null,
): Promise<MethodAnswer | PendingAnswer> {
  return requestJson('POST', `${methodPath(id)}/use-wallet`, { body: proofBody(proof) });
}

export async function listSessions(signal?: AbortSignal): Promise<SessionInfo[]> {
  const { sessions } = await requestJson<{ sessions: SessionInfo[] }>('GET', '/api/auth/sessions', {
    signal,
  });
  return sessions;
}

/**
 * Ends one session on every server at once (another one: with the proof, else it waits); rejects with
 * `not_found` when it has ended already.
 */
export function endSession(
  id: string,
  proof: AccountProof | null = null,
): Promise<{ ok: true } | PendingAnswer> {
  return requestJson('POST', `/api/auth/sessions/${encodeURIComponent(id)}/end`, { body: proofBody(proof) });
}

/** Ends every session of the person but this one (with the proof, else it waits); says how many ended. */
export function endOtherSessions(
  proof: AccountProof | null = null,
): Promise<{ ended: number } | PendingAnswer> {
  return requestJson('POST', '/api/auth/sessions/end-others', { body: proofBody(proof) });
}

/** Ends this session and clears the cookie; the others at once with the proof, else they wait. */
export function logoutEverywhere(proof: AccountProof | null = null): Promise<{ ok: true } | PendingAnswer> {
  return requestJson('POST', '/api/auth/logout/everywhere', { body: proofBody(proof) });
}

function methodPath(id: string): string {
  return `/api/auth/methods/${encodeURIComponent(id)}`;
}
