import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';

/**
 * Copies the address with the Clipboard API and says so ("Copied"). Where the clipboard is unavailable or
 * refused, it selects the address on screen instead so it can be copied by hand.
 */
export function useCopyAddress(address: string, addressRef: RefObject<HTMLElement | null>) {
  const [feedback, setFeedback] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(async () => {
    clearTimeout(timer.current);
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(address);
      setFeedback('Copied');
    } catch {
      selectContents(addressRef.current);
      setFeedback('Copy did not work here: the address is selected, so copy it by hand.');
    }
    timer.current = setTimeout(() => setFeedback(''), 4_000);
  }, [address, addressRef]);

  return { copy, feedback };
}

function selectContents(element: HTMLElement | null): void {
  if (element === null) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}
