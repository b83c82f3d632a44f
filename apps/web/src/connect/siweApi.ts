import type { SiweNonce, SiweVerified } from '@dial/api';
import { callApi } from '../api/client';

/** A nonce and what the message must carry (`siweNonce`), bound to this browser. */
export function getSiweNonce(): Promise<SiweNonce> {
  return callApi('siweNonce');
}

/** Checks a signed SIWE message and, when it holds, starts a session (`siweVerify`). */
export function verifySiwe(message: string, signature: `0x${string}`): Promise<SiweVerified> {
  return callApi('siweVerify', { body: { message, signature } });
}
