import { describe, expect, it } from 'vitest';
import { applyPhoneEdit, type PhoneFormatter } from './phoneEditing';

// Groups national digits as "00000 000000"; a leading +44 switches the country to GB.
const format: PhoneFormatter = (input, countryCode) => {
  const international = input.trim().startsWith('+');
  const digits = input.replace(/\D/g, '');
  if (international) {
    return {
      text: `+${digits.slice(0, 2)} ${digits.slice(2)}`.trim(),
      countryCode: digits.startsWith('44') ? 'GB' : countryCode,
    };
  }
  const text = digits.length > 5 ? `${digits.slice(0, 5)} ${digits.slice(5)}` : digits;
  return { text, countryCode };
};

describe('applyPhoneEdit', () => {
  it('formats as you type and keeps the caret at the end', () => {
    const edit = applyPhoneEdit(
      { previous: '07700', next: '077009', caret: 6, deletingBackward: false, countryCode: 'GB' },
      format,
    );
    expect(edit).toEqual({ text: '07700 9', caret: 7, countryCode: 'GB' });
  });

  it('keeps the caret after the same digit when a digit is typed in the middle', () => {
    // "07700 900123" with a "1" typed after "077"
    const edit = applyPhoneEdit(
      {
        previous: '07700 900123',
        next: '0771700 900123',
        caret: 4,
        deletingBackward: false,
        countryCode: 'GB',
      },
      format,
    );
    expect(edit.text).toBe('07717 00900123');
    expect(edit.caret).toBe(4);
  });

  it('deletes the digit before a space when Backspace removes the space', () => {
    // caret after the space of "07700 900123"; Backspace removed the space
    const edit = applyPhoneEdit(
      { previous: '07700 900123', next: '07700900123', caret: 5, deletingBackward: true, countryCode: 'GB' },
      format,
    );
    expect(edit.text).toBe('07709 00123');
    expect(edit.caret).toBe(4);
  });

  it('reports the country a pasted international number belongs to', () => {
    const edit = applyPhoneEdit(
      { previous: '', next: '+447700900123', caret: 13, deletingBackward: false, countryCode: 'US' },
      format,
    );
    expect(edit).toEqual({ text: '+44 7700900123', caret: 14, countryCode: 'GB' });
  });
});
