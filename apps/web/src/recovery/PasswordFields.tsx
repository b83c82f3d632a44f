import { FieldMessage, fieldMessageId } from '../ui/FieldMessage';
import { MIN_PASSWORD_LENGTH } from './passwordPolicy';

interface PasswordFieldsProps {
  password: string;
  confirmation: string;
  onPassword(value: string): void;
  onConfirmation(value: string): void;
  /** Inline errors, shown after a first submit. */
  passwordError: string | null;
  confirmationError: string | null;
  disabled: boolean;
}

/** A new recovery password and its confirmation, with the policy as the hint. */
export function PasswordFields(props: PasswordFieldsProps) {
  return (
    <>
      <div className="field">
        <label className="label" htmlFor="recovery-password">
          Recovery password
        </label>
        <input
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
          hint={`At least ${MIN_PASSWORD_LENGTH} characters. Write it down somewhere safe: Dial cannot show it to you again.`}
        />
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
