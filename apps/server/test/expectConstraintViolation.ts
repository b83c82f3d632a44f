import { expect } from 'vitest';
import { isUniqueViolation } from '../src/db/isUniqueViolation.js';

/** The database constraints a test may expect a statement to break. */
export type ConstraintKind = 'unique' | 'check' | 'foreign_key' | 'not_null';

/**
 * The error code each kind has: PostgreSQL's (and PGlite's) SQLSTATE, better-sqlite3's extended result
 * code. A primary key is a unique constraint.
 */
const CODES: Readonly<Record<ConstraintKind, readonly string[]>> = {
  unique: ['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'],
  check: ['23514', 'SQLITE_CONSTRAINT_CHECK'],
  foreign_key: ['23503', 'SQLITE_CONSTRAINT_FOREIGNKEY'],
  not_null: ['23502', 'SQLITE_CONSTRAINT_NOTNULL'],
};

/**
 * The statement fails on a constraint of this kind, on whichever dialect runs it: not any error (a typo in
 * the statement, a missing table), but the database refusing the row. A unique violation must also be one
 * the server recognises as such (`isUniqueViolation`).
 *
 * @param column - A column of the constraint that must break: PostgreSQL names it in the error's detail or
 * constraint name, SQLite in the message, so the test fails if another constraint was the one that broke.
 */
export async function expectConstraintViolation(
  statement: Promise<unknown>,
  kind: ConstraintKind,
  column: string,
): Promise<void> {
  const error = await statement.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error, `expected a ${kind} violation, but the statement succeeded`).toBeInstanceOf(Error);
  const { code, message, detail, constraint } = error as Error & Record<string, unknown>;
  const said = [message, detail, constraint].filter((part) => typeof part === 'string').join(' | ');
  expect(code, said).toBeOneOf([...CODES[kind]]);
  if (kind === 'unique') expect(isUniqueViolation(error)).toBe(true);
  expect(said).toContain(column);
}
