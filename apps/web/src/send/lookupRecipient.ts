import { requestJson } from '../api/client';

/** A Dial user's wallet found by their verified number; `phone` is masked ("*3456"). */
export interface FoundRecipient {
  address: `0x${string}`;
  phone: string;
}

/** Looks up the wallet of the Dial user who verified `e164`; rejects with `recipient_not_found`. */
export function lookupRecipient(e164: string, signal?: AbortSignal): Promise<FoundRecipient> {
  return requestJson<FoundRecipient>('GET', `/api/users/lookup?phone=${encodeURIComponent(e164)}`, {
    signal,
  });
}
