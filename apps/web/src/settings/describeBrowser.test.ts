import { describe, expect, it } from 'vitest';
import type { BrowserInfo } from '../api/types';
import { describeBrowserUse, describeForgotten, thisBrowserFirst } from './describeBrowser';

function browser(id: string, fields: Partial<BrowserInfo> = {}): BrowserInfo {
  return {
    id,
    name: 'Chrome on Linux',
    firstSeenAt: '2026-11-24T09:30:00.000Z',
    lastSeenAt: '2026-11-25T18:05:00.000Z',
    sessions: 1,
    current: false,
    ...fields,
  };
}

describe('describeBrowserUse', () => {
  it('says when the browser was first and last seen, and how many sessions it has', () => {
    const line = describeBrowserUse(browser('a', { sessions: 2 }), 'en-GB');
    expect(line).toMatch(/^First seen 24 Nov 2026, \d{2}:30 · last seen 25 Nov 2026, \d{2}:05 · 2 sessions$/);
    expect(describeBrowserUse(browser('a'), 'en-GB')).toMatch(/ · 1 session$/);
  });

  it('says a browser without a live session is signed out', () => {
    expect(describeBrowserUse(browser('a', { sessions: 0 }), 'en-GB')).toMatch(/ · signed out$/);
  });
});

describe('describeForgotten', () => {
  it('says what forgetting ended, and what its next sign-in does', () => {
    expect(describeForgotten('Firefox on Windows', 1)).toBe(
      'Firefox on Windows is forgotten: its session is ended. If it signs in again, it is a new browser and you will be told.',
    );
    expect(describeForgotten('Firefox on Windows', 3)).toMatch(
      /^Firefox on Windows is forgotten: its 3 sessions are ended\./,
    );
    expect(describeForgotten('Firefox on Windows', 0)).toMatch(/: it had no session left\./);
  });
});

describe('thisBrowserFirst', () => {
  it('puts this browser first and keeps the others’ order', () => {
    const sorted = thisBrowserFirst([browser('a'), browser('b', { current: true }), browser('c')]);
    expect(sorted.map((each) => each.id)).toEqual(['b', 'a', 'c']);
  });
});
