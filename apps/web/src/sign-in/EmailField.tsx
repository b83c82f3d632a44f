import type { RefObject } from 'react';
import { FieldMessage, fieldMessageId } from '../ui/FieldMessage';

interface EmailFieldProps {
  value: string;
  onChange(value: string): void;
  /** The inline message for an invalid address, if any. */
  error: string | null;
  disabled: boolean;
  inputRef?: RefObject<HTMLInputElement | null>;
}

/** The e-mail address to send the code to. */
export function EmailField({ value, onChange, error, disabled, inputRef }: EmailFieldProps) {
  return (
    <div className="field">
      <label className="label" htmlFor="email-address">
        Email address
      </label>
      <input
        ref={inputRef}
        id="email-address"
        name="email"
        className="input"
        type="email"
        autoComplete="username webauthn"
        inputMode="email"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        placeholder="name@example.com"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        readOnly={disabled}
        aria-invalid={error !== null}
        aria-describedby={fieldMessageId('email', error)}
      />
      <FieldMessage fieldId="email" error={error} hint="We’ll email you a 6-digit code." />
    </div>
  );
}
