import { requestJson } from '../api/client';
import type { NoticePage } from '../api/types';

/**
 * `GET /api/account/notices`: a page of the account's security notices, newest first, and how many of all
 * of them are unread. Pass the previous page's `nextCursor` as `cursor` for the next (older) one.
 */
export function listNotices(
  options: { limit?: number; cursor?: string | null; signal?: AbortSignal } = {},
): Promise<NoticePage> {
  const query = new URLSearchParams();
  if (options.limit !== undefined) query.set('limit', String(options.limit));
  if (options.cursor != null) query.set('cursor', options.cursor);
  const search = query.toString();
  return requestJson<NoticePage>('GET', `/api/account/notices${search === '' ? '' : `?${search}`}`, {
    signal: options.signal,
  });
}

/**
 * Marks the account's notices read: `upTo` a notice (it and every older one: the newest the list showed, so
 * one that came meanwhile stays unread), or all of them. Answers how many were unread.
 */
export async function markNoticesRead(upTo?: string): Promise<number> {
  const { marked } = await requestJson<{ marked: number }>('POST', '/api/account/notices/read', {
    body: upTo === undefined ? {} : { upTo },
  });
  return marked;
}
