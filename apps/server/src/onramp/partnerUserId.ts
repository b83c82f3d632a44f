import { createHmac } from 'node:crypto';

/** How many base64url characters of the HMAC the id keeps: 32 (192 bits), under Coinbase's 50. */
const LENGTH = 32;

/**
 * The `partnerUserId` of the buy link: an HMAC-SHA256 of the user id under a key derived from
 * `SHARE_ENCRYPTION_KEY` (`dial/onramp-partner-user-id`), base64url, truncated. Stable for a user on this
 * server, and it reveals nothing about them (not even the user id).
 */
export function partnerUserId(key: Uint8Array, userId: string): string {
  return createHmac('sha256', key).update(userId).digest('base64url').slice(0, LENGTH);
}
