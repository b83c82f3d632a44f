import { useCallback, useEffect, useRef, useState } from 'react';
import { listActivity, type Transfer } from './activityApi';

const PAGE_SIZE = 10;

export type ActivityState =
  | { status: 'loading' }
  | { status: 'failed'; error: unknown }
  | {
      status: 'ready';
      items: Transfer[];
      nextBefore: string | null;
      loadingMore: boolean;
      moreError: unknown;
    };

/** The signed-in user's activity, newest first, a page at a time ("Show more" loads older ones). */
export function useActivity() {
  const [state, setState] = useState<ActivityState>({ status: 'loading' });
  const latest = useRef(0);

  const reload = useCallback(async () => {
    const request = ++latest.current;
    setState({ status: 'loading' });
    try {
      const page = await listActivity({ limit: PAGE_SIZE });
      if (request === latest.current) {
        setState({
          status: 'ready',
          items: page.items,
          nextBefore: page.nextBefore,
          loadingMore: false,
          moreError: null,
        });
      }
    } catch (error) {
      if (request === latest.current) setState({ status: 'failed', error });
    }
  }, []);

  const loadMore = useCallback(async () => {
    if (state.status !== 'ready' || state.nextBefore === null || state.loadingMore) return;
    const request = latest.current;
    const before = state.nextBefore;
    setState({ ...state, loadingMore: true, moreError: null });
    try {
      const page = await listActivity({ limit: PAGE_SIZE, before });
      if (request !== latest.current) return;
      setState((current) => {
        if (current.status !== 'ready') return current;
        // A page can repeat nothing, but never show one transfer twice should the server's paging overlap.
        const seen = new Set(current.items.map((item) => item.id));
        const items = [...current.items, ...page.items.filter((item) => !seen.has(item.id))];
        return { status: 'ready', items, nextBefore: page.nextBefore, loadingMore: false, moreError: null };
      });
    } catch (error) {
      if (request !== latest.current) return;
      setState((current) =>
        current.status === 'ready' ? { ...current, loadingMore: false, moreError: error } : current,
      );
    }
  }, [state]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { state, reload, loadMore };
}
