import type { ClipboardEvent, FormEvent } from 'react';
import { useEffect } from 'react';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import type { CodeRoutes } from './codeRoutes';
import { useCodeEntry } from './useCodeEntry';
import { useCountdown } from './useCountdown';
import type { Challenge } from './useSignInFlow';
import { CODE_LENGTH, isCompleteCode } from './verificationCode';

interface CodeEntryProps<Result> {
  challenge: Challenge;
  /** Where the code is checked and a new one sent (sign-in's, or linking a method's). */
  routes: CodeRoutes<Result>;
  onVerified(result: Result): void;
  /** The challenge changed: a new code was sent, or the server said how long until the next. */
  onResent(challenge: Challenge): void;
  onBack(): void;
}

/** "Enter your code": one field for the six digits, resend after a wait, or go back. */
export function CodeEntry<Result>({
  challenge: initial,
  routes,
  onVerified,
  onResent,
  onBack,
}: CodeEntryProps<Result>) {
  const entry = useCodeEntry(initial, routes, onVerified, onResent);
  const secondsLeft = useCountdown(entry.challenge.resendAt);
  const isPhone = entry.challenge.started.channel === 'sms';

  useEffect(() => {
    entry.inputRef.current?.focus();
  }, [entry.inputRef]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void entry.verify(entry.code);
  };
  // Pasted text goes in where the selection is, and is cleaned like typed text ("123 456" → "123456").
  const paste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const field = event.currentTarget;
    const start = field.selectionStart ?? field.value.length;
    const end = field.selectionEnd ?? start;
    entry.onCodeInput(
      field.value.slice(0, start) + event.clipboardData.getData('text') + field.value.slice(end),
    );
  };

  const resendLabel = entry.checking
    ? 'Checking this browser…'
    : entry.pending === 'resend'
      ? 'Sending a new code…'
      : secondsLeft > 0
        ? `Resend code in ${secondsLeft}s`
        : 'Resend code';

  return (
    <Screen title="Enter your code" focusHeading={false}>
      <p className="lead">
        We sent a {CODE_LENGTH}-digit code to{' '}
        <strong className={isPhone ? 'nowrap' : 'break-anywhere'}>{entry.challenge.display}</strong>
      </p>
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label className="label" htmlFor="verification-code">
            Verification code
          </label>
          <input
            ref={entry.inputRef}
            id="verification-code"
            name="code"
            className="input input-code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            enterKeyHint="done"
            value={entry.code}
            onChange={(event) => entry.onCodeInput(event.target.value)}
            onPaste={paste}
            readOnly={entry.pending === 'verify'}
            aria-invalid={entry.error !== null && entry.code === ''}
            aria-describedby={entry.error !== null ? 'code-error' : undefined}
          />
          <p className="message message-success" role="status">
            {entry.notice}
          </p>
        </div>
        {entry.error !== null && <ErrorMessage error={entry.error} id="code-error" />}
        <button
          type="submit"
          className="button button-primary"
          disabled={!isCompleteCode(entry.code) || entry.pending !== null}
        >
          {entry.pending === 'verify' ? 'Verifying…' : 'Verify'}
        </button>
      </form>
      <div className={entry.needsNewCode ? 'actions actions-emphasis' : 'actions'}>
        <button
          type="button"
          className={entry.needsNewCode ? 'button button-primary' : 'button button-secondary'}
          onClick={() => void entry.resend()}
          disabled={secondsLeft > 0 || entry.pending !== null}
        >
          {resendLabel}
        </button>
        <button type="button" className="button button-link" onClick={onBack}>
          {isPhone ? 'Use a different number' : 'Use a different email'}
        </button>
      </div>
    </Screen>
  );
}
