import type { Ref } from 'react';
import { FieldMessage, fieldMessageId } from '../ui/FieldMessage';
import { MIN_PASSWORD_LENGTH } from './passwordPolicy';
import type { PasswordCheckStatus } from './usePasswordCheck';

interface PasswordFieldsProps {
  password: string;
  confirmation: string;
  onPassword(value: string): void;
  onConfirmation(value: string): void;
  /** Inline errors, shown after a first submit. */
  passwordError: string | null;
  confirmationError: string | null;
  disabled: boolean;
  passwordRef?: Ref<HTMLInputElement>;
  /** The strength check: loading, loaded, or failed to load. */
  checkStatus: PasswordCheckStatus;
  /** Loads the strength check again after it failed. */
  onRetryCheck(): void;
  /** Uses the password without the strength check, which failed to load. */
  onUseUnchecked(): void;
}

/** A new recovery password and its confirmation, with the policy as the hint and the strength check's state. */
export function PasswordFields(props: PasswordFieldsProps) {
  return (
    <>
      <div className="field">
        <label className="label" htmlFor="recovery-password">
          Recovery password
        </label>
        <input
          ref={props.passwordRef}
          id="recovery-password"
          className="input"
          type="password"
          autoComplete="new-password"
          value={props.password}
          onChange={(event) => props.onPassword(event.target.value)}
          readOnly={props.disabled}
          aria-invalid={props.passwordError !== null}
          aria-describedby={fieldMessageId('recovery-password', props.passwordError)}
        />
        <FieldMessage
          fieldId="recovery-password"
          error={props.passwordError}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters, and not easy to guess: a few unrelated words work well. Write it down somewhere safe: Dial cannot show it to you again.`}
        />
        {props.checkStatus === 'loading' && props.password !== '' && !props.disabled && (
          <p className="hint" role="status">
            Checking how easy this password is to guess…
          </p>
        )}
        {props.checkStatus === 'failed' && (
          <div className="message message-error password-check-failed" role="alert">
            <p>
              Dial could not load its check of how easy a password is to guess (is the connection down?), so
              it cannot tell yet whether this one is.
            </p>
            <div className="password-check-actions">
              <button
                type="button"
                className="button button-secondary"
                onClick={props.onRetryCheck}
                disabled={props.disabled}
              >
                Check again
              </button>
              <button
                type="button"
                className="button button-link"
                onClick={props.onUseUnchecked}
                disabled={props.disabled}
              >
                Use it without the check
              </button>
            </div>
          </div>
        )}
      </div>
      <div className="field">
        <label className="label" htmlFor="recovery-password-confirm">
          Confirm recovery password
        </label>
        <input
          id="recovery-password-confirm"
          className="input"
          type="password"
          autoComplete="new-password"
          value={props.confirmation}
          onChange={(event) => props.onConfirmation(event.target.value)}
          readOnly={props.disabled}
          aria-invalid={props.confirmationError !== null}
          aria-describedby={fieldMessageId('recovery-password-confirm', props.confirmationError)}
        />
        <FieldMessage
          fieldId="recovery-password-confirm"
          error={props.confirmationError}
          hint="Type it again."
        />
      </div>
    </>
  );
}
