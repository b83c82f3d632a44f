import { OTP_CODE_LENGTH } from '@dial/core';

/** Codes are this many digits. */
export const CODE_LENGTH = OTP_CODE_LENGTH;

/**
 * The digits of what was typed or pasted into the code field, at most {@link CODE_LENGTH}: spaces, dashes
 * and any other characters are dropped, so "123 456" and "123-456" both give "123456". Non-ASCII digits
 * (e.g. Arabic-Indic, from some phone keyboards) are read as their ASCII value.
 */
export function cleanCode(input: string): string {
  let digits = '';
  for (const char of input.normalize('NFKC')) {
    const digit = asciiDigit(char);
    if (digit !== undefined) digits += digit;
    if (digits.length === CODE_LENGTH) break;
  }
  return digits;
}

/** Whether a cleaned code is complete. */
export function isCompleteCode(code: string): boolean {
  return code.length === CODE_LENGTH && /^\d+$/.test(code);
}

const zeros = [0x30, 0x660, 0x6f0, 0x966, 0x9e6, 0xe50, 0xff10];

function asciiDigit(char: string): string | undefined {
  const point = char.codePointAt(0);
  if (point === undefined) return undefined;
  for (const zero of zeros) {
    if (point >= zero && point <= zero + 9) return String(point - zero);
  }
  return undefined;
}
