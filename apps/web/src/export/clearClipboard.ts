import { MINUTE_MS } from '@dial/core';

/** How long a copied private key may stay on the clipboard while the export screen is open. */
export const CLIPBOARD_CLEAR_MS = MINUTE_MS;

/**
 * Best-effort wipe of the clipboard after the private key was copied. Browsers only let a focused page write
 * to the clipboard, so it is tried only then; it never throws. Resolves to whether the clipboard was written.
 */
export async function clearClipboard(): Promise<boolean> {
  try {
    if (!navigator.clipboard || !document.hasFocus()) return false;
    await navigator.clipboard.writeText('');
    return true;
  } catch {
    return false;
  }
}
