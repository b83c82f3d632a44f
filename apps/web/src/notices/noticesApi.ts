import { callApi } from '../api/client';
import type { NoticePage } from '../api/types';

/**
 * `listNotices`: a page of the account's security notices, newest first, and how many of all of them are
 * unread. Pass the previous page's `nextCursor` as `cursor` for the next (older) one.
 */
export function listNotices(
  options: { limit?: number; cursor?: string | null; signal?: AbortSignal } = {},
): Promise<NoticePage> {
  const { limit, cursor, signal } = options;
  return callApi('listNotices', { query: { limit, cursor: cursor ?? undefined }, signal });
}

/**
 * Marks the account's notices read: `upTo` a notice (it and every older one: the newest the list showed, so
 * one that came meanwhile stays unread), or all of them. Answers how many were unread.
 */
export async function markNoticesRead(upTo?: string): Promise<number> {
  const { marked } = await callApi('markNoticesRead', { body: upTo === undefined ? {} : { upTo } });
  return marked;
}
