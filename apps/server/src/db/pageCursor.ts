import { DialError } from '@dial/core';

/**
 * Where a page of a list ordered newest first (created_at desc, id desc) starts: strictly after (older than)
 * this entry. The history (`GET /api/activity`) and the notices (`GET /api/notices`) page by it.
 */
export interface PageCursor {
  createdAt: string;
  id: string;
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CURSOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The cursor a client passes back: opaque to it (base64url of the last entry's time and id). */
export function encodeCursor(cursor: PageCursor): string {
  return Buffer.from(`${cursor.createdAt}/${cursor.id}`, 'utf8').toString('base64url');
}

/**
 * Reads a cursor given by {@link encodeCursor}.
 *
 * @throws {DialError} `invalid_data` for anything else.
 */
export function decodeCursor(text: string): PageCursor {
  const [createdAt = '', id = '', ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('/');
  if (rest.length > 0 || !CURSOR_TIME.test(createdAt) || !CURSOR_ID.test(id)) {
    throw new DialError('invalid_data', { details: 'not a cursor this server gave' });
  }
  return { createdAt, id };
}
