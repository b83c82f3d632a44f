import type { Country } from '@dial/core';
import {
  type FocusEvent,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { filterCountries } from './countryOptions';

const NONE: readonly Country[] = [];

/**
 * The country picker's behaviour: a button that opens a search box over a listbox. The search box keeps the
 * focus and points at the active option with aria-activedescendant; ArrowUp/ArrowDown move it, Enter picks,
 * Escape closes and gives the focus back to the button, and clicking or tabbing away closes. `listCountries`
 * is called when the picker opens, not before (naming and sorting every country takes a while).
 */
export function useCountryPicker(
  listCountries: () => readonly Country[],
  selectedCode: string,
  onSelect: (code: string) => void,
) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [activeIndex, setActiveIndex] = useState(-1);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const justOpened = useRef(false);
  const id = useId();
  const listId = `${id}-countries`;
  const optionId = useCallback((code: string) => `${id}-country-${code}`, [id]);

  const countries = useMemo(() => (open ? listCountries() : NONE), [open, listCountries]);
  const results = useMemo(() => filterCountries(countries, query), [countries, query]);
  const active = activeIndex >= 0 ? results[activeIndex] : undefined;

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);

  const openPicker = useCallback(() => {
    setQuery('');
    setActiveIndex(listCountries().findIndex((country) => country.code === selectedCode));
    justOpened.current = true;
    setOpen(true);
  }, [listCountries, selectedCode]);

  const pick = useCallback(
    (country: Country) => {
      onSelect(country.code);
      close(true);
    },
    [onSelect, close],
  );

  // Focus the search box once it is shown.
  useEffect(() => {
    if (open) searchRef.current?.focus();
  }, [open]);

  // Keep the active option in view: in the middle of the list when the picker opens, then just in view.
  useEffect(() => {
    if (!open) return;
    const option = active ? document.getElementById(optionId(active.code)) : null;
    option?.scrollIntoView({ block: justOpened.current ? 'center' : 'nearest' });
    justOpened.current = false;
  }, [open, active, optionId]);

  // A press anywhere outside the picker closes it, leaving the focus where the press put it.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => document.removeEventListener('pointerdown', onPointerDown, true);
  }, [open, close]);

  const onSearchChange = (value: string) => {
    setQuery(value);
    setActiveIndex(-1);
  };

  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = results.length - 1;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setActiveIndex((index) => Math.min(index + 1, last));
        break;
      case 'ArrowUp':
        event.preventDefault();
        setActiveIndex((index) => Math.max(index - 1, 0));
        break;
      case 'PageDown':
        event.preventDefault();
        setActiveIndex((index) => Math.min(index + 10, last));
        break;
      case 'PageUp':
        event.preventDefault();
        setActiveIndex((index) => Math.max(index - 10, 0));
        break;
      case 'Enter': {
        // Never submit the sign-in form from here.
        event.preventDefault();
        const choice = active ?? (query.trim() !== '' ? results[0] : undefined);
        if (choice) pick(choice);
        break;
      }
      case 'Escape':
        event.preventDefault();
        event.stopPropagation();
        close(true);
        break;
    }
  };

  // Tabbing away closes the picker (a null relatedTarget is a click on something unfocusable, handled above).
  const onPopupBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget as Node | null;
    if (next !== null && !rootRef.current?.contains(next)) close(false);
  };

  return {
    open,
    query,
    results,
    active,
    listId,
    optionId,
    rootRef,
    buttonRef,
    searchRef,
    toggle: () => (open ? close(false) : openPicker()),
    pick,
    onSearchChange,
    onSearchKeyDown,
    onPopupBlur,
  };
}
