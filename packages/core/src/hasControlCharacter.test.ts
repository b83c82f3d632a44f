import { describe, expect, it } from 'vitest';
import { hasControlCharacter } from './hasControlCharacter.js';

describe('hasControlCharacter', () => {
  it.each(['', 'ada@example.com', '+447400123456', 'Zoë 日本 😀', '\u00a0\u00a1~'])(
    'finds none in %j',
    (text) => {
      expect(hasControlCharacter(text)).toBe(false);
    },
  );

  it.each([
    ['NUL', '\u0000'],
    ['U+0001', 'x\u0001y'],
    ['a tab', 'a\tb'],
    ['a line feed', 'a\n'],
    ['a carriage return', '\rb'],
    ['U+001F', '\u001f'],
    ['DEL', '\u007f'],
    ['C1 U+0080', '\u0080'],
    ['C1 NEL U+0085', 'a\u0085b'],
    ['C1 U+009F', '\u009f'],
  ])('finds %s', (_name, text) => {
    expect(hasControlCharacter(text)).toBe(true);
  });
});
