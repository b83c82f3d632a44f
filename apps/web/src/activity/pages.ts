import { MAX_ACTIVITY_PAGE_SIZE } from '@dial/core';
import type { ActivityEntry, ActivityPage } from './activityApi';

/** The server's largest page (`GET /api/activity` `limit`). */
export const MAX_PAGE_SIZE = MAX_ACTIVITY_PAGE_SIZE;

/** `items` followed by those of `more` not already in it: overlapping pages never show an entry twice. */
export function appendNew(items: readonly ActivityEntry[], more: readonly ActivityEntry[]): ActivityEntry[] {
  const seen = new Set(items.map((item) => item.id));
  return [...items, ...more.filter((item) => !seen.has(item.id))];
}

export type FetchPage = (options: { limit: number; cursor: string | null }) => Promise<ActivityPage>;

/**
 * Loads the newest entries again, at least `count` of them (or all there are), so a refresh keeps what
 * "Show more" had opened rather than dropping back to the first page. Asks for pages of `pageSize`, or
 * bigger ones (up to the server's maximum) when more are wanted.
 */
export async function loadAtLeast(
  fetchPage: FetchPage,
  count: number,
  pageSize: number,
): Promise<ActivityPage> {
  let items: ActivityEntry[] = [];
  let cursor: string | null = null;
  do {
    const limit = Math.min(MAX_PAGE_SIZE, Math.max(pageSize, count - items.length));
    const page: ActivityPage = await fetchPage({ limit, cursor });
    items = appendNew(items, page.items);
    cursor = page.nextCursor;
  } while (items.length < count && cursor !== null);
  return { items, nextCursor: cursor };
}
