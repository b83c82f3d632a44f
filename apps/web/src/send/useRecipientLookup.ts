import { useEffect, useState } from 'react';
import { type FoundRecipient, lookupRecipient } from './lookupRecipient';

export type LookupState =
  | { status: 'idle' }
  | { status: 'loading'; e164: string }
  | { status: 'found'; e164: string; recipient: FoundRecipient }
  | { status: 'failed'; e164: string; error: unknown };

const DEBOUNCE_MS = 400;

/**
 * Resolves a valid recipient number (E.164, or null while the field holds none) to a Dial user's wallet,
 * once the person stops typing. The server limits look-ups (30 an hour), so each number is asked once per
 * send screen; answers for a number no longer in the field are dropped.
 */
export function useRecipientLookup(e164: string | null): LookupState {
  const [state, setState] = useState<LookupState>({ status: 'idle' });
  const [cache] = useState(() => new Map<string, LookupState>());

  useEffect(() => {
    if (e164 === null) {
      setState({ status: 'idle' });
      return;
    }
    const cached = cache.get(e164);
    if (cached !== undefined) {
      setState(cached);
      return;
    }
    setState({ status: 'loading', e164 });
    const controller = new AbortController();
    const timer = setTimeout(() => {
      lookupRecipient(e164, controller.signal).then(
        (recipient) => {
          const found: LookupState = { status: 'found', e164, recipient };
          cache.set(e164, found);
          setState(found);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const failed: LookupState = { status: 'failed', e164, error };
          // An unknown number stays unknown for this screen; anything else (429, offline) may be retried.
          if ((error as { code?: unknown }).code === 'recipient_not_found') cache.set(e164, failed);
          setState(failed);
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [e164, cache]);

  return state;
}
