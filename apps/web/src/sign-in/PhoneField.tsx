import { type ChangeEvent, type RefObject, useEffect, useRef } from 'react';
import { FieldMessage, fieldMessageId } from '../ui/FieldMessage';
import { CountryPicker } from './CountryPicker';
import { rememberCountry } from './countryList';
import { usePhoneLibrary } from './loadPhoneLibrary';
import { applyPhoneEdit } from './phoneEditing';

interface PhoneFieldProps {
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

/**
 * The country picker and the phone number, formatted as it is typed. The field works before the phone
 * library has loaded (it loads after the first render): what is typed meanwhile is kept as typed, and
 * formatted once the library is there, as a paste would be; the placeholder (an example number) shows then.
 */
export function PhoneField({
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
  const library = usePhoneLibrary();

  // Typed (or filled in by the browser) before the library loaded: formatted as soon as it is there.
  const formattedOnLoad = useRef(library !== undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the library arrives.
  useEffect(() => {
    if (library === undefined || formattedOnLoad.current) return;
    formattedOnLoad.current = true;
    if (value.trim() === '') return;
    const field = input.current;
    const edit = applyPhoneEdit(
      {
        previous: value,
        next: value,
        caret: field?.selectionStart ?? value.length,
        deletingBackward: false,
        countryCode,
      },
      library.formatPhoneInput,
    );
    if (edit.text === value && edit.countryCode === countryCode) return;
    onChange({ phone: edit.text, countryCode: edit.countryCode });
    queueMicrotask(() => {
      if (field && document.activeElement === field) field.setSelectionRange(edit.caret, edit.caret);
    });
  }, [library]);

  const onInput = (event: ChangeEvent<HTMLInputElement>) => {
    const field = event.target;
    if (library === undefined) {
      // No formatting yet: kept as typed (the browser keeps the caret).
      onChange({ phone: field.value, countryCode });
      return;
    }
    const format = library.formatPhoneInput;
    const native = event.nativeEvent as InputEvent;
    const edit = applyPhoneEdit(
      {
        previous: value,
        next: field.value,
        caret: field.selectionStart ?? field.value.length,
        deletingBackward: native.inputType === 'deleteContentBackward',
        countryCode,
      },
      format,
    );
    onChange({ phone: edit.text, countryCode: edit.countryCode });
    // The formatted text is written by the render this change schedules (a microtask, queued first): put the
    // caret back after it.
    queueMicrotask(() => {
      if (document.activeElement === field) field.setSelectionRange(edit.caret, edit.caret);
    });
  };

  const onCountry = (code: string) => {
    // The next phone field on this browser (after sign-out too) starts with it.
    rememberCountry(code);
    // An international number ("+44 …") names its own country: leave it as typed.
    const phone =
      value.trim().startsWith('+') || library === undefined
        ? value
        : library.formatPhoneInput(value, code).text;
    onChange({ phone, countryCode: code });
  };

  return (
    <div className="field">
      <label className="label" htmlFor="phone-number">
        Phone number
      </label>
      <div className="phone-row">
        <CountryPicker value={countryCode} onChange={onCountry} disabled={disabled} />
        <input
          ref={input}
          id="phone-number"
          name="phone"
          className="input"
          type="tel"
          autoComplete="tel-national webauthn"
          inputMode="tel"
          placeholder={library?.examplePhone(countryCode) ?? ''}
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
