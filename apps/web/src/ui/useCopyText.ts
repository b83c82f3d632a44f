import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';

/**
 * Copies `text` with the Clipboard API and says so ("Copied"). Where the clipboard is unavailable or
 * refused, it selects the text shown in `textRef` instead so it can be copied by hand, and says that the
 * `what` ("address", "key") is selected. `copy` resolves to whether the Clipboard API took the text, so a
 * caller can act on a real copy (the export screen clears it later).
 */
export function useCopyText(text: string, textRef: RefObject<HTMLElement | null>, what: string) {
  const [feedback, setFeedback] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(async (): Promise<boolean> => {
    clearTimeout(timer.current);
    let copied = false;
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setFeedback('Copied');
      copied = true;
    } catch {
      selectContents(textRef.current);
      setFeedback(`Copy did not work here: the ${what} is selected, so copy it by hand.`);
    }
    timer.current = setTimeout(() => setFeedback(''), 4_000);
    return copied;
  }, [text, textRef, what]);

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
