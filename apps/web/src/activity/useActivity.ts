import { useCallback, useEffect, useRef, useState } from 'react';
import { onWalletChange } from '../live/walletChanges';
import { type ActivityEntry, listActivity } from './activityApi';
import { PAGE_SIZE } from './pageSize';
import { appendNew, loadAtLeast } from './pages';

export type ActivityState =
  | { status: 'loading' }
  | { status: 'failed'; error: unknown }
  | {
      status: 'ready';
      items: ActivityEntry[];
      nextCursor: string | null;
      loadingMore: boolean;
      /** Loading the list again, with the current one still shown. */
      refreshing: boolean;
      /** "Show more" or a refresh failed; what was shown stays. */
      moreError: unknown;
    };

/**
 * The signed-in user's history, newest first, a page at a time ("Show more" loads older ones), on one network
 * (`chainId`) or all (`null`). `reload` loads it again keeping what is shown on screen meanwhile, and as many
 * entries as were shown, so a refresh never closes what "Show more" opened; it runs by itself when the live
 * stream says the activity changed. `shown` may come from the screen around the list, so the count also
 * outlives the list (its first load then loads as many).
 */
export function useActivity(remembered?: { current: number }, chainId: number | null = null) {
  const [state, setState] = useState<ActivityState>({ status: 'loading' });
  const latest = useRef(0);
  const own = useRef(0);
  const shown = remembered ?? own;
  if (state.status === 'ready') shown.current = state.items.length;

  const reload = useCallback(async () => {
    const request = ++latest.current;
    const count = shown.current;
    setState((current) =>
      current.status === 'ready' && current.items.length > 0
        ? { ...current, refreshing: true, loadingMore: false, moreError: null }
        : { status: 'loading' },
    );
    try {
      const page = await loadAtLeast(
        (options) => listActivity({ ...options, chainId }),
        Math.max(count, PAGE_SIZE),
        PAGE_SIZE,
      );
      if (request !== latest.current) return;
      setState({
        status: 'ready',
        items: page.items,
        nextCursor: page.nextCursor,
        loadingMore: false,
        refreshing: false,
        moreError: null,
      });
    } catch (error) {
      if (request !== latest.current) return;
      setState((current) =>
        current.status === 'ready' && current.items.length > 0
          ? { ...current, refreshing: false, moreError: error }
          : { status: 'failed', error },
      );
    }
  }, [shown, chainId]);

  const loadMore = useCallback(async () => {
    if (state.status !== 'ready' || state.nextCursor === null || state.loadingMore || state.refreshing) {
      return;
    }
    const request = latest.current;
    const cursor = state.nextCursor;
    setState({ ...state, loadingMore: true, moreError: null });
    try {
      const page = await listActivity({ limit: PAGE_SIZE, cursor, chainId });
      if (request !== latest.current) return;
      setState((current) => {
        if (current.status !== 'ready') return current;
        const items = appendNew(current.items, page.items);
        return { ...current, items, nextCursor: page.nextCursor, loadingMore: false, moreError: null };
      });
    } catch (error) {
      if (request !== latest.current) return;
      setState((current) =>
        current.status === 'ready' ? { ...current, loadingMore: false, moreError: error } : current,
      );
    }
  }, [state, chainId]);

  useEffect(() => {
    void reload();
  }, [reload]);

  useEffect(
    () =>
      onWalletChange((event) => {
        if (event.kind === 'activity' || event.kind === 'reload') void reload();
      }),
    [reload],
  );

  return { state, reload, loadMore };
}
