/**
 * The one sentence that says what a passkey is for, wherever one is offered (the sign-in screen, settings).
 * Its own module, without WebAuthn code: the sign-in form imports it on its first load.
 */
export const PASSKEY_PURPOSE =
  "Sign in with your fingerprint, face or screen lock instead of a code; it can't be taken by someone who takes over your phone number.";

/** Whether this browser can use passkeys at all (WebAuthn in a secure context). */
export function passkeysPossible(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && 'PublicKeyCredential' in window;
}
