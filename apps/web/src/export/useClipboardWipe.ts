import { useCallback, useEffect, useRef, useState } from 'react';
import { CLIPBOARD_CLEAR_MS, clearClipboard } from './clearClipboard';

/**
 * After the private key is copied (`armed()`), clears the clipboard a minute later, and at once when the key
 * screen closes. If the page has no focus when the screen closes (so the browser refuses the write), the
 * minute's timer is left running for a second try; otherwise it is cancelled so a later copy of something
 * else is never wiped. `pending` says whether a clear is still due, for the note next to the button.
 */
export function useClipboardWipe() {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const due = useRef(false);
  const [pending, setPending] = useState(false);
  const [cleared, setCleared] = useState(false);

  const armed = useCallback(() => {
    clearTimeout(timer.current);
    due.current = true;
    setPending(true);
    setCleared(false);
    timer.current = setTimeout(() => {
      due.current = false;
      void clearClipboard().then((done) => {
        setPending(false);
        setCleared(done);
      });
    }, CLIPBOARD_CLEAR_MS);
  }, []);

  // Leaving the screen: clear now. The timer (and its state updates) only outlives the screen if that failed.
  useEffect(
    () => () => {
      if (!due.current) return;
      const pendingTimer = timer.current;
      void clearClipboard().then((done) => {
        if (done) clearTimeout(pendingTimer);
      });
    },
    [],
  );

  return { armed, pending, cleared };
}
