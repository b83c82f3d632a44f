import type { BrowserInfo } from '../api/types';
import { formatMoment } from './describeMethod';

/** A browser's use of the account, in a line: "First seen 24 Nov 2026, 09:30 · last seen … · 2 sessions". */
export function describeBrowserUse(
  browser: Pick<BrowserInfo, 'firstSeenAt' | 'lastSeenAt' | 'sessions'>,
  locale?: string,
): string {
  const sessions =
    browser.sessions === 0
      ? 'signed out'
      : `${browser.sessions} ${browser.sessions === 1 ? 'session' : 'sessions'}`;
  return `First seen ${formatMoment(browser.firstSeenAt, locale)} · last seen ${formatMoment(browser.lastSeenAt, locale)} · ${sessions}`;
}

/** What forgetting a browser did, for the screen's status line. */
export function describeForgotten(name: string, endedSessions: number): string {
  const ended =
    endedSessions === 0
      ? 'it had no session left'
      : `${endedSessions === 1 ? 'its session is' : `its ${endedSessions} sessions are`} ended`;
  return `${name} is forgotten: ${ended}. If it signs in again, it is a new browser and you will be told.`;
}

/** This browser first, then the others as the server ordered them (the most recently seen first). */
export function thisBrowserFirst(browsers: readonly BrowserInfo[]): BrowserInfo[] {
  return [...browsers.filter((each) => each.current), ...browsers.filter((each) => !each.current)];
}
