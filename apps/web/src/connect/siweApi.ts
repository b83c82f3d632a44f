import type { SiweNonce, SiweVerified } from '@dial/api';
import { requestJson } from '../api/client';

/** A nonce and what the message must carry (`POST /api/auth/siwe/nonce`), bound to this browser. */
export function getSiweNonce(): Promise<SiweNonce> {
  return requestJson<SiweNonce>('POST', '/api/auth/siwe/nonce', { body: {} });
}

/** Checks a signed SIWE message and, when it holds, starts a session (`POST /api/auth/siwe/verify`). */
export function verifySiwe(message: string, signature: `0x${string}`): Promise<SiweVerified> {
  return requestJson<SiweVerified>('POST', '/api/auth/siwe/verify', { body: { message, signature } });
}
