const DASH = 0x2d;
const COLON = 0x3a;
const DOT = 0x2e;
const LETTER_T = 0x54;
const LETTER_Z = 0x5a;
const ZERO = 0x30;

/**
 * The time of a stored timestamp, in milliseconds since the epoch: what `Date.parse(text)` gives. Dial stores
 * every time as `toISOString()` writes it (`YYYY-MM-DDTHH:mm:ss.sssZ`); text of that form is read here digit
 * by digit, anything else by `Date.parse`, which reads every form its grammar allows and costs twice as much,
 * twice in the session check of every signed-in request (docs/BENCHMARKS.md).
 */
export function storedTime(text: string): number {
  if (
    text.length === 24 &&
    text.charCodeAt(4) === DASH &&
    text.charCodeAt(7) === DASH &&
    text.charCodeAt(10) === LETTER_T &&
    text.charCodeAt(13) === COLON &&
    text.charCodeAt(16) === COLON &&
    text.charCodeAt(19) === DOT &&
    text.charCodeAt(23) === LETTER_Z
  ) {
    const year = digits(text, 0, 4);
    const month = digits(text, 5, 2);
    const day = digits(text, 8, 2);
    const hour = digits(text, 11, 2);
    const minute = digits(text, 14, 2);
    const second = digits(text, 17, 2);
    const millisecond = digits(text, 20, 3);
    // The bounds `Date.parse` checks; a day past its month's end (February 30th) runs into the next month
    // in both. A year below 100 is left to `Date.parse`, which reads it as itself (`Date.UTC`, as 1900 on).
    if (
      year >= 100 &&
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= 31 &&
      hour >= 0 &&
      hour <= 23 &&
      minute >= 0 &&
      minute <= 59 &&
      second >= 0 &&
      second <= 59 &&
      millisecond >= 0
    ) {
      return Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
    }
  }
  return Date.parse(text);
}

/** The number written in `width` decimal digits at `at`; -1 when one of them is not a digit. */
function digits(text: string, at: number, width: number): number {
  let value = 0;
  for (let index = at; index < at + width; index++) {
    const digit = text.charCodeAt(index) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
