/**
 * Hides an identifier (a phone number, an account number) but for its last four characters, to show which
 * one is meant without showing it. Dashes and spaces are removed first, so they are never among the four.
 *
 * @param id - The identifier, e.g. `'555-123-4567'`.
 * @returns `'*'` followed by the last four characters, e.g. `'*4567'` (fewer when the identifier is shorter).
 *
 * @example
 * ```ts
 * maskIdentifier('555-123-4567'); // '*4567'
 * maskIdentifier('+44 7400 123456'); // '*3456'
 * ```
 */
export function maskIdentifier(id: string): string {
  return `*${id.replace(/[-\s]/g, '').slice(-4)}`;
}
