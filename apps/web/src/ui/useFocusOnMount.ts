import { type RefObject, useEffect } from 'react';

/**
 * Moves focus to an element when a screen appears, so keyboard and screen-reader users start at the new
 * screen's heading or first field instead of wherever the previous screen left them.
 */
export function useFocusOnMount(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    ref.current?.focus({ preventScroll: false });
  }, [ref]);
}
