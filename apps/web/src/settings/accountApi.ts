import { requestJson } from '../api/client';
import type { OtpChannel, OtpStarted, SessionInfo, SignInMethod, SiweNonce } from '../api/types';

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
 * Checks the code and links the number or address; rejects with `invalid_code`, `code_expired`,
 * `code_attempts_exceeded`, `method_taken` (another account's), `method_already_linked` or
 * `methods_limit_reached`.
 */
export async function verifyLinkCode(channel: OtpChannel, to: string, code: string): Promise<SignInMethod> {
  const { method } = await requestJson<{ method: SignInMethod }>('POST', '/api/auth/methods/code/verify', {
    body: { channel, to, code },
  });
  return method;
}

/** A nonce for the SIWE message that links a wallet, bound to this session. */
export function getLinkWalletNonce(): Promise<SiweNonce> {
  return requestJson<SiweNonce>('POST', '/api/auth/methods/wallet/nonce', { body: {} });
}

/** Links the address that signed `message` (a SIWE message with a link nonce). */
export async function linkWallet(message: string, signature: string): Promise<SignInMethod> {
  const { method } = await requestJson<{ method: SignInMethod }>('POST', '/api/auth/methods/wallet', {
    body: { message, signature },
  });
  return method;
}

/** Turns a phone number's findability for send-to-phone on or off. */
export async function setFindable(id: string, findable: boolean): Promise<SignInMethod> {
  const { method } = await requestJson<{ method: SignInMethod }>('PATCH', methodPath(id), {
    body: { findable },
  });
  return method;
}

/** Unlinks a method; rejects with `last_method` for the only one, `not_found` when it is gone. */
export async function removeMethod(id: string): Promise<void> {
  await requestJson<{ ok: true }>('POST', `${methodPath(id)}/remove`, { body: {} });
}

export async function listSessions(signal?: AbortSignal): Promise<SessionInfo[]> {
  const { sessions } = await requestJson<{ sessions: SessionInfo[] }>('GET', '/api/auth/sessions', {
    signal,
  });
  return sessions;
}

/** Ends one session on every server at once; rejects with `not_found` when it has ended already. */
export async function endSession(id: string): Promise<void> {
  await requestJson<{ ok: true }>('POST', `/api/auth/sessions/${encodeURIComponent(id)}/end`, {
    body: {},
  });
}

/** Ends every session of the person but this one; returns how many ended. */
export async function endOtherSessions(): Promise<number> {
  const { ended } = await requestJson<{ ended: number }>('POST', '/api/auth/sessions/end-others', {
    body: {},
  });
  return ended;
}

/** Ends every session of the person, this one included. */
export async function logoutEverywhere(): Promise<void> {
  await requestJson<{ ok: true }>('POST', '/api/auth/logout/everywhere', { body: {} });
}

function methodPath(id: string): string {
  return `/api/auth/methods/${encodeURIComponent(id)}`;
}
