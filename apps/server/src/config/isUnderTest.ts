/**
 * Whether this process runs the tests (Vitest sets `NODE_ENV=test`), whatever the configuration a test gives
 * its app: then every error an app answers is checked against its route's declared codes
 * (`http/refuseUndeclaredErrors.ts`).
 */
export function isUnderTest(): boolean {
  return process.env.NODE_ENV === 'test';
}
