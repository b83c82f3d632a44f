import type { Country } from '@dial/core';
import { examplePhone, formatPhoneInput } from '@dial/core';
import { type ChangeEvent, type RefObject, useRef } from 'react';
import { FieldMessage, fieldMessageId } from '../ui/FieldMessage';
import { CountryPicker } from './CountryPicker';
import { rememberCountry } from './countryList';
import { applyPhoneEdit } from './phoneEditing';

interface PhoneFieldProps {
  countries: readonly Country[];
  countryCode: string;
  value: string;
  onChange(value: { phone: string; countryCode: string }): void;
  /** The inline message for an invalid number, if any. */
  error: string | null;
  disabled: boolean;
  inputRef?: RefObject<HTMLInputElement | null>;
  /** The line under the field when there is no error (the sign-in form's by default). */
  hint?: string;
}

/** The country picker and the phone number, formatted as it is typed. */
export function PhoneField({
  countries,
  countryCode,
  value,
  onChange,
  error,
  disabled,
  inputRef,
  hint = 'We’ll text you a 6-digit code.',
}: PhoneFieldProps) {
  const ownRef = useRef<HTMLInputElement>(null);
  const input = inputRef ?? ownRef;

  const onInput = (event: ChangeEvent<HTMLInputElement>) => {
    const field = event.target;
    const native = event.nativeEvent as InputEvent;
    const edit = applyPhoneEdit(
      {
        previous: value,
        next: field.value,
        caret: field.selectionStart ?? field.value.length,
        deletingBackward: native.inputType === 'deleteContentBackward',
        countryCode,
      },
      formatPhoneInput,
    );
    onChange({ phone: edit.text, countryCode: edit.countryCode });
    // React writes the formatted text synchronously during this event; put the caret back after it.
    queueMicrotask(() => {
      if (document.activeElement === field) field.setSelectionRange(edit.caret, edit.caret);
    });
  };

  const onCountry = (code: string) => {
    // The next phone field on this browser (after sign-out too) starts with it.
    rememberCountry(code);
    // An international number ("+44 …") names its own country: leave it as typed.
    const phone = value.trim().startsWith('+') ? value : formatPhoneInput(value, code).text;
    onChange({ phone, countryCode: code });
  };

  return (
    <div className="field">
      <label className="label" htmlFor="phone-number">
        Phone number
      </label>
      <div className="phone-row">
        <CountryPicker countries={countries} value={countryCode} onChange={onCountry} disabled={disabled} />
        <input
          ref={input}
          id="phone-number"
          name="phone"
          className="input"
          type="tel"
          autoComplete="tel-national"
          inputMode="tel"
          placeholder={examplePhone(countryCode)}
          value={value}
          onChange={onInput}
          readOnly={disabled}
          aria-invalid={error !== null}
          aria-describedby={fieldMessageId('phone', error)}
        />
      </div>
      <FieldMessage fieldId="phone" error={error} hint={hint} />
    </div>
  );
}
