import type { FoundRecipient } from '@dial/api';
import { callApi } from '../api/client';

export type { FoundRecipient } from '@dial/api';

/** Looks up the wallet of the Dial user who verified `e164`; rejects with `recipient_not_found`. */
export function lookupRecipient(e164: string, signal?: AbortSignal): Promise<FoundRecipient> {
  return callApi('lookupRecipient', { query: { phone: e164 }, signal });
}
