import './reauth.css';
import { type FormEvent, useEffect } from 'react';
import { useCountdown } from '../sign-in/useCountdown';
import { CODE_LENGTH, isCompleteCode } from '../sign-in/verificationCode';
import { ErrorMessage } from '../ui/ErrorMessage';
import { useReauth } from './useReauth';

interface ConfirmWithCodeProps {
  /** Why a code is needed, in a sentence. */
  reason: string;
  onConfirmed(): void;
}

/**
 * "Confirm it's you": sends a fresh code to the user's own phone or e-mail and checks it. Used before
 * sensitive actions (export, replacing key shares from an older session).
 */
export function ConfirmWithCode({ reason, onConfirmed }: ConfirmWithCodeProps) {
  const reauth = useReauth(onConfirmed);
  const secondsLeft = useCountdown(reauth.sent?.resendAt ?? 0);
  const { sent, inputRef } = reauth;

  // The code field takes the focus when it appears.
  useEffect(() => {
    if (sent !== null) inputRef.current?.focus();
  }, [sent, inputRef]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void reauth.verify(reauth.code);
  };

  if (sent === null) {
    return (
      <div className="reauth">
        <p>{reason}</p>
        {reauth.error !== null && <ErrorMessage error={reauth.error} />}
        <button
          type="button"
          className="button button-primary"
          onClick={() => void reauth.send()}
          aria-disabled={reauth.pending !== null}
        >
          {reauth.pending === 'send' ? 'Sending a code…' : 'Send me a code'}
        </button>
      </div>
    );
  }

  const where = sent.channel === 'sms' ? 'your phone' : 'your e-mail address';
  return (
    <form className="form reauth" onSubmit={submit} noValidate>
      <div className="field">
        <label className="label" htmlFor="reauth-code">
          Confirmation code
        </label>
        <p className="hint" id="reauth-code-hint">
          We sent a {CODE_LENGTH}-digit code to {where}.
        </p>
        <input
          ref={inputRef}
          id="reauth-code"
          className="input input-code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          value={reauth.code}
          onChange={(event) => reauth.onCodeInput(event.target.value)}
          readOnly={reauth.pending === 'verify'}
          aria-describedby={reauth.error !== null ? 'reauth-code-hint reauth-error' : 'reauth-code-hint'}
          aria-invalid={reauth.error !== null && reauth.code === ''}
        />
      </div>
      {reauth.error !== null && <ErrorMessage error={reauth.error} id="reauth-error" />}
      <button
        type="submit"
        className="button button-primary"
        disabled={!isCompleteCode(reauth.code) || reauth.pending !== null}
      >
        {reauth.pending === 'verify' ? 'Checking…' : 'Confirm'}
      </button>
      <button
        type="button"
        className={reauth.needsNewCode ? 'button button-primary' : 'button button-secondary'}
        onClick={() => void reauth.send()}
        disabled={secondsLeft > 0 || reauth.pending !== null}
      >
        {reauth.pending === 'send'
          ? 'Sending a new code…'
          : secondsLeft > 0
            ? `Send a new code in ${secondsLeft}s`
            : 'Send a new code'}
      </button>
    </form>
  );
}
