/// <reference lib="webworker" />
import { findPasswordWeakness } from './passwordStrength';

/**
 * The recovery password's strength check, off the page's thread: building zxcvbn's dictionaries takes
 * about half a second and a check up to a tenth of one, which the page would spend not answering keys.
 * Says `ready` once its dictionaries are built (its script, with them, has loaded), then judges each
 * password it is sent.
 */
export interface StrengthRequest {
  id: number;
  password: string;
  userInputs: readonly string[];
}

export type StrengthReply =
  | { type: 'ready' }
  | { type: 'verdict'; id: number; weakness: string | null }
  | { type: 'error'; id: number; message: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<StrengthRequest>) => {
  const { id, password, userInputs } = event.data;
  try {
    const weakness = findPasswordWeakness(password, userInputs);
    scope.postMessage({ type: 'verdict', id, weakness } satisfies StrengthReply);
  } catch (error) {
    scope.postMessage({
      type: 'error',
      id,
      message: error instanceof Error ? error.message : String(error),
    } satisfies StrengthReply);
  }
};

scope.postMessage({ type: 'ready' } satisfies StrengthReply);
