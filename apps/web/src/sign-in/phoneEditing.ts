/** The result of an edit in the as-you-type phone field. */
export interface PhoneEdit {
  text: string;
  /** Where the caret goes in `text`. */
  caret: number;
  countryCode: string;
}

/** Formats raw input for a country; '@dial/core' formatPhoneInput in the app, a stand-in in tests. */
export type PhoneFormatter = (input: string, countryCode: string) => { text: string; countryCode: string };

export interface PhoneEditInput {
  /** The field's text before the edit. */
  previous: string;
  /** The field's text after the edit, as the browser left it. */
  next: string;
  /** The caret in `next`. */
  caret: number;
  /** Whether the edit was a backward deletion (Backspace). */
  deletingBackward: boolean;
  countryCode: string;
}

/**
 * Applies an edit to the formatted phone field and keeps the caret after the same digit, so typing or
 * deleting in the middle of "07700 900123" does not throw the caret to the end. Backspace over a space or
 * another formatting character deletes the digit before it (otherwise the formatter would put the
 * character straight back, and Backspace would seem stuck).
 */
export function applyPhoneEdit(edit: PhoneEditInput, format: PhoneFormatter): PhoneEdit {
  let { next, caret } = edit;
  if (edit.deletingBackward && significant(next) === significant(edit.previous) && caret > 0) {
    const before = lastSignificantIndex(next, caret);
    if (before >= 0) {
      next = next.slice(0, before) + next.slice(before + 1);
      caret = before;
    }
  }

  const atEnd = caret >= next.length;
  const kept = significant(next.slice(0, caret)).length;
  const formatted = format(next, edit.countryCode);
  return {
    text: formatted.text,
    countryCode: formatted.countryCode,
    caret: atEnd ? formatted.text.length : caretAfter(formatted.text, kept),
  };
}

/** The characters that carry meaning: digits, and a leading '+'. */
function significant(text: string): string {
  return text.replace(/[^\d+]/g, '');
}

function isSignificant(char: string | undefined): boolean {
  return char !== undefined && /[\d+]/.test(char);
}

function lastSignificantIndex(text: string, before: number): number {
  for (let index = before - 1; index >= 0; index--) {
    if (isSignificant(text[index])) return index;
  }
  return -1;
}

/** The position just after the `count`-th significant character of `text`. */
function caretAfter(text: string, count: number): number {
  if (count === 0) return 0;
  let seen = 0;
  for (let index = 0; index < text.length; index++) {
    if (isSignificant(text[index])) seen++;
    if (seen === count) return index + 1;
  }
  return text.length;
}
