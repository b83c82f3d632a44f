// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Whether a string holds a control character: C0 (U+0000–U+001F, NUL, tab and line breaks included), DEL
 * (U+007F) or C1 (U+0080–U+009F). No identifier or form field Dial reads may hold one: databases refuse
 * NUL, and mail and log software drop or act on the others, so two different strings could end up meaning
 * one thing (one mailbox, two accounts) or a forged log line.
 *
 * @param text - The string to check.
 * @returns `true` when it holds at least one control character.
 *
 * @example
 * ```ts
 * hasControlCharacter('ada@example.com'); // false
 * hasControlCharacter('x\u0001y@example.com'); // true
 * ```
 */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}
