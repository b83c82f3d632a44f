import { proofBody } from '../account/accountChangesApi';
import { type ChangeOutcome, makeAccountChange } from '../account/makeAccountChange';
import { type Answer, callApi } from '../api/client';
import type { BrowserInfo, StepUpProof } from '../api/types';

/** The browsers the account has signed in from, the most recently seen first (`listBrowsers`). */
export async function listBrowsers(signal?: AbortSignal): Promise<BrowserInfo[]> {
  const { browsers } = await callApi('listBrowsers', { signal });
  return browsers;
}

/**
 * `forgetBrowser`: with the key's proof, forgets the browser at once (its sessions end;
 * answers how many); without, asks for it (202 `{pending}`: it waits out the cooling-off period). Rejects
 * with `not_found` when the browser is gone already.
 */
export function forgetBrowser(
  id: string,
  proof: StepUpProof | null = null,
): Promise<Answer<'forgetBrowser'>> {
  return callApi('forgetBrowser', { params: { id }, body: proofBody(proof) });
}

/**
 * Forgets another browser, proved with the account's key when this browser can (no prompt with a device
 * share), else asked for; when made at once, answers how many of its sessions ended.
 */
export function forgetOtherBrowser(userId: string, id: string): Promise<ChangeOutcome<number>> {
  return makeAccountChange(userId, { action: 'forget-browser', id }, async (proof) => {
    const answer = await forgetBrowser(id, proof);
    return 'pending' in answer ? answer : answer.endedSessions;
  });
}
