import { useEffect, useRef, useState } from 'react';
import type { User } from '../api/types';
import { PASSKEY_PURPOSE, passkeysPossible } from '../passkeys/passkeyPurpose';
import { ErrorMessage } from '../ui/ErrorMessage';

interface PasskeySignInProps {
  onSignedIn(user: User): void;
}

type Busy = 'sign-in' | 'sign-up' | null;

/**
 * "Sign in with a passkey" and "Create an account with a passkey", below the form, and the browser's passkey
 * autofill on the form's field (`autocomplete="… webauthn"`) where `isConditionalMediationAvailable()` says
 * so. The WebAuthn code (`passkeys/passkeyCeremonies.ts`) is a chunk of its own, imported only after the
 * form has rendered (for the autofill) or when a button is used: the first load carries none of it.
 */
export function PasskeySignIn({ onSignedIn }: PasskeySignInProps) {
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<unknown>(null);
  /** The autofill's pending request: a button's prompt aborts it (one WebAuthn request at a time). */
  const autofill = useRef<AbortController | null>(null);
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;

  useEffect(() => {
    if (!passkeysPossible()) return;
    const controller = new AbortController();
    autofill.current = controller;
    // After the form is usable: the check and the chunk wait for the next task.
    const timer = setTimeout(() => {
      void (async () => {
        const api = PublicKeyCredential as { isConditionalMediationAvailable?: () => Promise<boolean> };
        if ((await api.isConditionalMediationAvailable?.().catch(() => false)) !== true) return;
        if (controller.signal.aborted) return;
        const { signInWithPasskey } = await import('../passkeys/passkeyCeremonies');
        try {
          const answer = await signInWithPasskey({ conditional: true, signal: controller.signal });
          if (answer !== null) signedIn.current(answer.user);
        } catch (caught) {
          // A passkey was picked and the server refused it (not this site's account, say): say why.
          if (!controller.signal.aborted) setError(caught);
        }
      })();
    }, 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, []);

  if (!passkeysPossible()) return null;

  // The buttons stay enabled while busy (aria-disabled, and a press then does nothing): a disabled button
  // would drop the keyboard's focus to the page's start, and after a refused passkey the person would have
  // to find their place again.
  const run = async (what: Exclude<Busy, null>) => {
    if (busy !== null) return;
    autofill.current?.abort();
    setBusy(what);
    setError(null);
    try {
      const { signInWithPasskey, signUpWithPasskey } = await import('../passkeys/passkeyCeremonies');
      const answer = what === 'sign-in' ? await signInWithPasskey() : await signUpWithPasskey();
      if (answer !== null) onSignedIn(answer.user);
    } catch (caught) {
      setError(caught);
      setBusy(null);
    }
  };

  return (
    <section className="passkey-sign-in" aria-label="Passkeys">
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          aria-disabled={busy !== null}
          onClick={() => void run('sign-in')}
        >
          {busy === 'sign-in' ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
        </button>
        <button
          type="button"
          className="button button-link"
          aria-disabled={busy !== null}
          onClick={() => void run('sign-up')}
        >
          {busy === 'sign-up' ? 'Creating your passkey…' : 'Create an account with a passkey'}
        </button>
      </div>
      <p className="hint">{PASSKEY_PURPOSE}</p>
      {error !== null && <ErrorMessage error={error} />}
    </section>
  );
}
