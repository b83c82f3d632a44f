import { useSyncExternalStore } from 'react';

/** Fired on `window` when the app itself changes the URL (pushState and replaceState fire no event). */
export const LOCATION_CHANGED = 'dial-location-changed';

export interface AppLocation {
  /** The path, e.g. `/send`. */
  path: string;
  /** The query string with its `?`, or ''. */
  search: string;
}

/** The URL's path and query, updated on Back and Forward and on the app's own navigations. */
export function useLocation(): AppLocation {
  const path = useSyncExternalStore(subscribe, readPath);
  const search = useSyncExternalStore(subscribe, readSearch);
  return { path, search };
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(LOCATION_CHANGED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(LOCATION_CHANGED, onChange);
  };
}

const readPath = () => window.location.pathname;
const readSearch = () => window.location.search;
