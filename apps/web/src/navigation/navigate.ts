import { LOCATION_CHANGED } from './useLocation';

/**
 * What the app keeps in each history entry it makes: the paths of the app's entries below it, oldest first.
 * It lets a screen's own "Back" or "Done" return to the entry it was opened from (`history.go`) instead of
 * pushing a new one, so the browser's Back and the app's agree. History state survives a reload.
 */
interface EntryState {
  dial: { below: string[] };
}

type HistoryWindow = Pick<Window, 'history' | 'location' | 'dispatchEvent'>;

/** Opens the screen at `to` (a path, optionally with a query) as a new history entry. */
export function openScreen(to: string, win: HistoryWindow = window): void {
  const state: EntryState = { dial: { below: [...entriesBelow(win), win.location.pathname] } };
  win.history.pushState(state, '', to);
  win.dispatchEvent(new Event(LOCATION_CHANGED));
}

/** Shows the screen at `to` in place of the current entry (a redirect, a step that must not be returned to). */
export function replaceScreen(to: string, win: HistoryWindow = window): void {
  const state: EntryState = { dial: { below: entriesBelow(win) } };
  win.history.replaceState(state, '', to);
  win.dispatchEvent(new Event(LOCATION_CHANGED));
}

/**
 * Leaves the screens under `prefix` (e.g. `/send`: the form, its review and its status): goes back in the
 * history to the entry they were opened from, or, when they were not opened from the app (a link, a new
 * tab), replaces the current entry with `fallback`.
 */
export function closeScreen(prefix: string, fallback: string, win: HistoryWindow = window): void {
  const below = entriesBelow(win);
  let steps = 1;
  let index = below.length - 1;
  while (index >= 0 && isUnder(below[index] ?? '', prefix)) {
    index--;
    steps++;
  }
  if (index >= 0) win.history.go(-steps);
  else replaceScreen(fallback, win);
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

function entriesBelow(win: HistoryWindow): string[] {
  const state = win.history.state as Partial<EntryState> | null;
  const below = state?.dial?.below;
  return Array.isArray(below) && below.every((path) => typeof path === 'string') ? below : [];
}
