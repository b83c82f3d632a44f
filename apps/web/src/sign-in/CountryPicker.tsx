import { countryCallingCodes, countryFlag } from '@dial/core';
import type { MouseEvent } from 'react';
import { getCountries, useCountryName } from './countryList';
import { formatCallCode } from './countryOptions';
import { useCountryPicker } from './useCountryPicker';

interface CountryPickerProps {
  value: string;
  onChange(code: string): void;
  disabled?: boolean;
}

/**
 * The phone field's country: a button showing the flag and calling code, opening a searchable list. The
 * list of countries is made when it opens: the button needs only its own country.
 */
export function CountryPicker({ value, onChange, disabled = false }: CountryPickerProps) {
  const picker = useCountryPicker(getCountries, value, onChange);
  // The button's country without naming it (its name comes after the first render: useCountryName).
  const digits = countryCallingCodes().get(value);
  const callCode = digits !== undefined ? formatCallCode(digits) : '';
  const name = useCountryName(value);

  return (
    <div className="country-picker" ref={picker.rootRef}>
      <button
        type="button"
        className="country-button"
        ref={picker.buttonRef}
        aria-label={`Country: ${name ?? value} ${callCode}`.trim()}
        aria-haspopup="dialog"
        aria-expanded={picker.open}
        onClick={picker.toggle}
        disabled={disabled}
      >
        <span className="country-flag" aria-hidden="true">
          {digits !== undefined ? countryFlag(value) : undefined}
        </span>
        <span aria-hidden="true">{callCode}</span>
        <span className="chevron" aria-hidden="true" />
      </button>

      {picker.open && (
        <div
          className="country-popup"
          role="dialog"
          aria-label="Choose a country"
          onBlur={picker.onPopupBlur}
        >
          <input
            ref={picker.searchRef}
            type="search"
            className="input country-search"
            aria-label="Search countries"
            placeholder="Search by name or code"
            autoComplete="off"
            autoCorrect="off"
            spellCheck={false}
            enterKeyHint="go"
            aria-controls={picker.listId}
            aria-autocomplete="list"
            aria-activedescendant={picker.active ? picker.optionId(picker.active.code) : undefined}
            value={picker.query}
            onChange={(event) => picker.onSearchChange(event.target.value)}
            onKeyDown={picker.onSearchKeyDown}
          />
          <p className="visually-hidden" role="status">
            {picker.query.trim() === '' ? '' : countMessage(picker.results.length)}
          </p>
          {/* Pressing an option must not take the focus from the search box. */}
          <div
            className="country-list"
            id={picker.listId}
            role="listbox"
            aria-label="Countries"
            onMouseDown={preventDefault}
          >
            {picker.results.map((country) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works through the search box (aria-activedescendant).
              <div
                key={country.code}
                id={picker.optionId(country.code)}
                role="option"
                tabIndex={-1}
                aria-selected={country === picker.active}
                className={optionClass(country === picker.active, country.code === value)}
                onClick={() => picker.pick(country)}
              >
                <span className="country-flag">{country.flag}</span> {country.name}{' '}
                <span className="country-code">{formatCallCode(country.callCode)}</span>
              </div>
            ))}
          </div>
          {picker.results.length === 0 && (
            <p className="country-empty">No country matches “{picker.query}”.</p>
          )}
        </div>
      )}
    </div>
  );
}

function preventDefault(event: MouseEvent) {
  event.preventDefault();
}

function countMessage(count: number): string {
  if (count === 0) return 'No countries found.';
  return count === 1 ? '1 country found.' : `${count} countries found.`;
}

function optionClass(active: boolean, current: boolean): string {
  return ['country-option', active && 'is-active', current && 'is-current'].filter(Boolean).join(' ');
}
