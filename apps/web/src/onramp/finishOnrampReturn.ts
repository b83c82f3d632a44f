/** The message the payment window posts to the app that opened it. */
export interface OnrampReturnMessage {
  type: 'dial-onramp';
  outcome: 'credited' | 'failed';
}

/**
 * Runs first on every page load: when the on-ramp sends its window back to the app (`/?onramp=credited`),
 * tells the app that opened the window (same origin only) and closes the window. Returns true when it did
 * (the caller then renders nothing); otherwise removes the parameter and the app opens as usual (a payment
 * page that was opened in a new tab: the first tab still watches the balance).
 */
export function finishOnrampReturn(win: Window = window): boolean {
  const url = new URL(win.location.href);
  const outcome = url.searchParams.get('onramp');
  if (outcome === null) return false;
  url.searchParams.delete('onramp');
  win.history.replaceState(win.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  const opener = win.opener as Window | null;
  if (opener === null || opener === win) return false;
  const message: OnrampReturnMessage = {
    type: 'dial-onramp',
    outcome: outcome === 'credited' ? 'credited' : 'failed',
  };
  try {
    // The target origin is ours: the message never reaches a page of another site.
    opener.postMessage(message, win.location.origin);
  } catch {
    return false;
  }
  win.close();
  return true;
}

/** Whether a message event is the payment window's, from this origin. */
export function isOnrampReturnMessage(
  event: MessageEvent,
  origin: string,
): event is MessageEvent<OnrampReturnMessage> {
  const data = event.data as Partial<OnrampReturnMessage> | null;
  return (
    event.origin === origin &&
    typeof data === 'object' &&
    data !== null &&
    data.type === 'dial-onramp' &&
    (data.outcome === 'credited' || data.outcome === 'failed')
  );
}
